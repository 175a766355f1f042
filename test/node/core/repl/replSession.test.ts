// The REPL session end to end through the built bundles: binding, the prelude, output capture, finals.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { ContextTooLargeError } from '../../../../src/core/context/contextErrors';
import { InvalidContextError } from '../../../../src/core/repl/replErrors';
import { recordingBridge, startSession } from './replTestKit';

function pyValue(stdout: string): string {
  return stdout.trimEnd();
}

describe('REPL session: a single text context', () => {
  let session: ReplSession;
  const bridge = recordingBridge();
  const mb = 1024 * 1024;
  // 50 MB of lines; the needle sits on a known line near the end.
  const line = 'the quick brown fox jumps over the lazy dog 0123456789\n'; // 55 bytes
  const lines = Math.ceil((50 * mb) / line.length);
  const needleLine = lines - 10;
  const big = Buffer.from(line.repeat(lines));
  big.write('NEEDLE', (needleLine - 1) * line.length + 4);

  before(async () => {
    session = await startSession({ bridge: bridge.handler, captureMaxChars: 10_000, outCellMaxChars: 2_000_000, outTotalMaxChars: 1_000_000 });
  });
  after(async () => {
    await session?.close();
  });

  // How long the bind takes is bench/replBench.ts's "bind 50 MB of text as context".
  it('binds 50 MB as a str and reports metadata computed on the host', async () => {
    const meta = await session.bindContext({ kind: 'text', text: big, label: 'big.txt' });
    assert.equal(meta.type, 'str');
    assert.equal(meta.totalBytes, big.byteLength);
    assert.equal(meta.totalChars, big.byteLength);
    assert.equal(meta.fileCount, 1);
    assert.equal(meta.prefix, line.repeat(4).slice(0, 200));
    assert.equal(meta.invalidUtf8Replacements, 0);
    const r = await session.execute('len(context), type(context).__name__');
    assert.equal(pyValue(r.stdout), `(${big.byteLength}, 'str')`);
  });

  it('search finds the needle with a 1-based line number, and peek slices', async () => {
    const r = await session.execute('hits = search(r"NEEDLE", max_hits=5)\nprint(len(hits), hits[0]["line"], hits[0]["path"], hits[0]["text"][:20])\npeek(hits[0]["start"], hits[0]["start"] + 6)');
    assert.equal(r.error, undefined, r.error?.traceback);
    // Printed, a peek says where it is (the path, `context` for a single text) and numbers its lines.
    assert.match(r.stdout, new RegExp(`^1 ${needleLine} None the NEEDLEbrown fox \\ncontext, line ${needleLine} \\(chars \\d+-\\d+ of \\d+\\):\\n${needleLine}\\| NEEDLE\\n$`));
    const capped = await session.execute('len(peek(0, 10**9)), peek(5, 3), search("fox", max_hits=3)[2]["line"]');
    assert.equal(pyValue(capped.stdout), "(20000, '', 3)");
    const wrong = await session.execute('peek(0, 5, path="a.txt")');
    assert.equal(wrong.error?.type, 'ValueError');
  });

  it('keeps variables assigned before an exception and trims the traceback to the cell', async () => {
    const r = await session.execute('kept = 41\ndef boom():\n    return 1 / 0\nboom()\nnever = 1');
    assert.equal(r.error?.type, 'ZeroDivisionError');
    assert.match(r.error?.traceback ?? '', /File "<cell-\d+>", line 4, in <module>/);
    assert.match(r.error?.traceback ?? '', /line 3, in boom\n\s+return 1 \/ 0/);
    assert.doesNotMatch(r.error?.traceback ?? '', /_rlm_prelude|run_cell/);
    assert.deepEqual(r.newVariables, ['boom', 'kept']);
    const next = await session.execute('kept + 1');
    assert.equal(pyValue(next.stdout), '42');
    const syntax = await session.execute('def (:');
    assert.equal(syntax.error?.type, 'SyntaxError');
  });

  it('a print flood reaches the host as its real head and real tail with the true length, and _out keeps all of it', async () => {
    const streamed: string[] = [];
    const off = session.onOutput((e) => e.stream === 'stdout' && streamed.push(e.text));
    const r = await session.execute('for i in range(100_000):\n    print("line", i)\nprint("END")');
    off();
    const expected = Array.from({ length: 100_000 }, (_, i) => `line ${i}\n`).join('') + 'END\n';
    assert.equal(r.stdoutChars, expected.length);
    assert.equal(r.stdout, expected.slice(0, 5_000) + expected.slice(-5_000), 'head and tail, 10,000 characters in all');
    assert.equal(r.stdoutCutAt, 5_000);
    assert.ok(r.stdout.endsWith('line 99999\nEND\n'));
    assert.equal(r.outKept, undefined, 'under the per-cell limit of _out, nothing was cut there');
    assert.ok(streamed.join('').length <= 10_000, 'streaming stops at the capture limit');
    assert.ok(streamed.length >= 1);
    const back = await session.execute(`len(_out[${r.outIndex}]), _out[${r.outIndex}][:7], _out[${r.outIndex}][-4:], _out[${r.outIndex}].cut`);
    assert.equal(pyValue(back.stdout), `(${expected.length}, 'line 0\\n', 'END\\n', False)`);
  });

  it('an output over _out\'s per-cell limit keeps its first and last halves there, and says which ranges', async () => {
    const r = await session.execute('import sys\n_ = sys.stdout.write("a" * 1_500_000 + "b" * 1_500_000 + "END")');
    assert.equal(r.stdoutChars, 3_000_003);
    assert.deepEqual(r.outKept, { chars: 2_000_000, ranges: [[0, 1_000_000], [2_000_003, 3_000_003]] });
    const back = await session.execute(`o = _out[${r.outIndex}]\nlen(o), o.total_chars, o.cut, o[:1], o[-3:], o.kept_ranges`);
    assert.equal(pyValue(back.stdout), "(2000000, 3000003, True, 'a', 'END', ((0, 1000000), (2000003, 3000003)))");
  });

  it('caps the recursion limit below the depth that would crash the REPL, and says so', async () => {
    const r = await session.execute('import sys\nsys.setrecursionlimit(100_000)\ndef f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept RecursionError:\n    print("caught", sys.getrecursionlimit())');
    assert.equal(r.stdout, 'caught 10000\n');
    assert.match(r.stderr, /recursion limit capped at 10000 \(asked for 100000\)/);
    assert.equal(r.restarted, undefined);
    assert.equal((await session.execute('sys.setrecursionlimit(2000)\nsys.getrecursionlimit()')).stdout, '2000\n');
  });

  it('protects the prelude names and says so', async () => {
    const r = await session.execute('context = "gone"\nllm_query = None\nFINAL = 3\n_out = {}');
    assert.match(r.stderr, /restored reserved name\(s\) context, llm_query, FINAL, _out/);
    const after = await session.execute('len(context) > 1000, callable(llm_query), callable(FINAL), isinstance(_out, dict)');
    assert.equal(pyValue(after.stdout), '(True, True, True, True)');
  });

  it('keeps _out within its total limit, newest first, and says when an entry was dropped', async () => {
    // This session's _out keeps 1,000,000 characters in all.
    const first = await session.execute('print("x" * 9_999)');
    for (let i = 0; i < 110; i++) await session.execute('print("y" * 9_999)');
    const r = await session.execute(`print(len(_out) <= 100, sum(map(len, _out.values())) <= 1_000_000, ${first.outIndex} in _out)
_out[${first.outIndex}]`);
    assert.equal(r.stdout, 'True True False\n');
    assert.equal(r.error?.type, 'KeyError');
    assert.match(r.error?.message ?? '', /was dropped to bound memory/);
    const newest = await session.execute(`len(_out[${r.outIndex - 1}])`);
    assert.equal(newest.stdout, '10000\n', 'each of those outputs is kept whole');
  });

  it('FINAL, FINAL_VAR and the answer dict end the run; a missing name is an error, never the answer', async () => {
    const missing = await session.execute('FINAL_VAR("no_such_variable")');
    assert.equal(missing.final, undefined);
    assert.equal(missing.error?.type, 'NameError');
    assert.match(missing.error?.message ?? '', /no variable named 'no_such_variable'/);
    const byVar = await session.execute('result = "forty-two"\nFINAL_VAR("result")');
    assert.deepEqual(byVar.final, { value: 'forty-two', via: 'FINAL_VAR' });
    const byFinal = await session.execute('FINAL(6 * 7)');
    assert.deepEqual(byFinal.final, { value: '42', via: 'FINAL' });
    const none = await session.execute('x = 1');
    assert.equal(none.final, undefined);
    await session.execute('answer["content"] = "built "');
    const ready = await session.execute('answer["content"] += "over cells"\nanswer["ready"] = True');
    assert.deepEqual(ready.final, { value: 'built over cells', via: 'answer' });
    const later = await session.execute('y = 2');
    assert.equal(later.final, undefined, 'a reported answer does not end the next cell again');
  });

  it('sub-calls go through the bridge: single, batched in order, with per-item errors', async () => {
    const r = await session.execute('print(llm_query("hi", model="small"))\nprint(llm_query_batched(["a", "b", "c"]))\nprint(rlm_query("q", context={"k": [1]}))');
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.equal(r.stdout, "echo:hi\n['echo:a', 'echo:b', 'echo:c']\necho:q\n");
    const calls = bridge.calls.slice(-3);
    assert.deepEqual(calls[0], { kind: 'llm_query', prompts: ['hi'], model: 'small', batched: false });
    assert.deepEqual(calls[1], { kind: 'llm_query', prompts: ['a', 'b', 'c'], model: null, batched: true });
    assert.deepEqual(calls[2], { kind: 'rlm_query', prompts: ['q'], contexts: [{ k: [1] }], batched: false });
    const bad = await session.execute('rlm_query("q", context=object())');
    assert.equal(bad.error?.type, 'TypeError');
  });

  it('input() and sys.stdin say there is nobody at a keyboard, as an EOFError a cell can catch', async () => {
    const r = await session.execute('answer_was = input("Proceed? ")');
    assert.match(r.error?.traceback ?? '', /EOFError: no input: the RLM REPL runs with nobody at a keyboard/);
    assert.equal(r.stdout, 'Proceed? ');
    const caught = await session.execute('import sys\ntry:\n    sys.stdin.read()\nexcept EOFError as e:\n    print("caught", "keyboard" in str(e))\nprint(sys.stdin.isatty())');
    assert.equal(caught.error, undefined, caught.error?.traceback);
    assert.equal(caught.stdout, 'caught True\nFalse\n');
  });

  it('time.sleep still sleeps, and SHOW_VARS lists user variables only', async () => {
    const r = await session.execute('import time\nt = time.monotonic(); time.sleep(0.3); print(0.3 <= time.monotonic() - t < 5)\nSHOW_VARS()');
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.match(r.stdout, /^True\n/);
    assert.match(r.stdout, /kept: int/);
    assert.doesNotMatch(r.stdout, /llm_query|context:/);
  });

  it('rejects duplicate paths with a typed error and keeps the bound context', async () => {
    await assert.rejects(
      session.bindContext({ kind: 'files', files: [{ path: 'a', content: 'x' }, { path: 'a', content: 'y' }] }),
      (err: unknown) => err instanceof InvalidContextError && err.path === 'a',
    );
    const still = await session.execute('len(context) == ' + String(big.byteLength));
    assert.equal(pyValue(still.stdout), 'True');
  });
});

describe('REPL session: a 2,000-file dict context', () => {
  let session: ReplSession;
  const files = Array.from({ length: 2000 }, (_, i) => ({
    path: `src/dir${i % 20}/file${String(i).padStart(4, '0')}.ts`,
    content: i % 2 ? `// file ${i}\nexport const value${i} = ${i};\n` : Buffer.from(`// file ${i}\nconst s = "héllo ${i}";\n`),
  }));
  // One file with invalid UTF-8 (a lone continuation byte and a truncated 3-byte sequence).
  files[7] = { path: files[7]!.path, content: Buffer.from([0x61, 0x80, 0x62, 0xe2, 0x82, 0x0a]) };

  before(async () => {
    session = await startSession({ contextLimitBytes: 10 * 1024 * 1024 });
  });
  after(async () => {
    await session?.close();
  });

  it('binds a dict in the given order with per-file metadata capped at 100 entries', async () => {
    const meta = await session.bindContext({ kind: 'files', files });
    assert.equal(meta.type, 'dict');
    assert.equal(meta.fileCount, 2000);
    assert.equal(meta.files.length, 100);
    assert.equal(meta.filesOmitted, 1900);
    assert.equal(meta.files[0]?.path, files[0]!.path);
    assert.equal(meta.files[0]?.chars, '// file 0\nconst s = "héllo 0";\n'.length);
    assert.equal(meta.invalidUtf8Replacements, 2);
    assert.equal(meta.prefix, '// file 0\nconst s = "héllo 0";\n');
    const r = await session.execute('keys = list(context)\nprint(len(context), keys[0], keys[-1], repr(context[keys[7]]))\ncontext_meta()["file_count"]');
    assert.equal(r.stdout, `2000 ${files[0]!.path} ${files[1999]!.path} 'a\ufffdb\ufffd\\n'\n2000\n`);
  });

  it('search across files and within one path; peek needs a path', async () => {
    const r = await session.execute('h = search(r"value19\\d\\d\\b", max_hits=500)\nprint(len(h), h[0]["path"], h[0]["line"], h[0]["text"])\nprint(len(search("héllo", path="src/dir0/file0000.ts")))\npeek(3, 9, path="src/dir0/file0000.ts")');
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.equal(r.stdout, `50 src/dir1/file1901.ts 2 export const value1901 = 1901;\n1\nsrc/dir0/file0000.ts, line 1 (chars 3-9 of 31):\n1| file 0\n`);
    // Over several lines each is numbered; as data the slice is the file's text itself.
    const lines = await session.execute('p = peek(0, 60, path="src/dir1/file1901.ts")\nprint(p)\nprint(p == context["src/dir1/file1901.ts"][:60], len(p), p.splitlines()[1])');
    assert.equal(lines.error, undefined, lines.error?.traceback);
    assert.match(lines.stdout, /^src\/dir1\/file1901\.ts, lines 1-2 \(chars 0-\d+ of \d+\):\n1\| \/\/ file 1901\n2\| export const value1901 = 1901;\nTrue \d+ export const value1901 = 1901;\n$/);
    const noPath = await session.execute('peek(0, 5)');
    assert.equal(noPath.error?.type, 'ValueError');
    assert.match(noPath.error?.message ?? '', /pass path=/);
  });

  it('refuses context over the limit with an actionable error and keeps the old context', async () => {
    const tooBig = 'x'.repeat(10 * 1024 * 1024 + 1);
    await assert.rejects(
      session.bindContext({ kind: 'text', text: tooBig }),
      (err: unknown) =>
        err instanceof ContextTooLargeError && err.bytes === tooBig.length && err.limit === 10 * 1024 * 1024 && /Narrow it/.test(err.message),
    );
    const r = await session.execute('len(context)');
    assert.equal(pyValue(r.stdout), '2000');
  });

  it('the dict context is a read-only dict, so a reused session never sees an edited context', async () => {
    const r = await session.execute('import copy\nisinstance(context, dict), type(dict(context)).__name__, type(copy.deepcopy(context)).__name__');
    assert.equal(r.stdout, "(True, 'dict', 'dict')\n");
    const edit = await session.execute('context["src/dir0/file0000.ts"] = ""');
    assert.equal(edit.error?.type, 'TypeError');
    assert.match(edit.error?.message ?? '', /read-only; make a copy with dict\(context\)/);
    const json = await session.execute('import json\nlen(json.dumps(context)) > 1000');
    assert.equal(json.stdout, 'True\n');
  });

  it('re-binding the same source is free, and a new source replaces context', async () => {
    const again = await session.bindContext({ kind: 'files', files });
    assert.equal(again.fileCount, 2000);
    const meta = await session.bindContext({ kind: 'text', text: 'short text' });
    assert.equal(meta.totalChars, 10);
    const r = await session.execute('context');
    assert.equal(pyValue(r.stdout), "'short text'");
  });
});
