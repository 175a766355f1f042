// A large text `context` is held once in the REPL: the worker writes its bytes straight into the str it
// becomes (src/worker/textTarget.ts) while they are ASCII, and falls back to the buffered decode at the
// first other byte, wherever it comes. Checked through the real REPL process: the memory a large ASCII
// bind adds, the exact text for non-ASCII and invalid bytes at every stage of the fallback, a folder
// mixing both kinds, an aborted bind, and a cell that sends the target requests itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../../../src/core/context/contextPlan';
import { ContextChangedError } from '../../../../src/core/repl/contextStream';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { recordingBridge, replChildPids, startSession } from './replTestKit';

const MB = 1024 * 1024;

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) * 1024;
}

const sha = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** Python that prints the sha256 of `expr`'s UTF-8 bytes, its length and its replacement count. */
const digestOf = (expr: string): string => `import hashlib\n_t = ${expr}\nprint(hashlib.sha256(_t.encode('utf-8', 'surrogatepass')).hexdigest(), len(_t), _t.count('\\ufffd'))`;

describe('REPL session: a large text is held once', () => {
  let session: ReplSession;
  let pid: number;
  let dir: string;
  before(async () => {
    const others = new Set(replChildPids());
    session = await startSession({ bridge: recordingBridge().handler });
    pid = replChildPids().find((p) => !others.has(p))!;
    assert.ok(pid, 'no REPL process found');
    dir = mkdtempSync(join(tmpdir(), 'rlm-text-target-'));
  });
  after(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binding 96 MB of ASCII adds about 96 MB to the REPL process, not twice that', async () => {
    await session.bindContext({ kind: 'text', text: 'warm' });
    await session.execute('x = 1');
    const before = rssBytes(pid);
    const line = '2026-12-04T10:00:00Z INFO request served in 12 ms by worker 7\n';
    const text = line.repeat(Math.ceil((96 * MB) / line.length)).slice(0, 96 * MB);
    const meta = await session.bindContext({ kind: 'text', text });
    const grown = rssBytes(pid) - before;
    assert.equal(meta.totalChars, 96 * MB);
    // Through a buffer, the bytes and the str were both resident (wasm memory never shrinks): 192 MB or more.
    assert.ok(grown < 1.4 * 96 * MB, `the REPL grew by ${Math.round(grown / MB)} MB for a 96 MB text`);
    const r = await session.execute(`${digestOf('context')}\nprint(context.isascii(), {context: 1}[context[:] + ''], context.count('worker 7'))`);
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.stdout, `${sha(text)} ${text.length} 0\nTrue 1 ${text.split('worker 7').length - 1}\n`);
  });

  for (const [name, at] of [
    ['in its first piece', 10],
    ['after megabytes of ASCII', 3 * MB + 123],
    ['as its very last character', -1],
  ] as const) {
    it(`a non-ASCII character ${name} binds the exact text`, async () => {
      const size = 4 * MB;
      const chars = 'abcdefghij'.repeat(size / 10 + 1).slice(0, size - 2).split('');
      const index = at < 0 ? chars.length : at;
      chars.splice(index, 0, '€');
      const text = chars.join('');
      const meta = await session.bindContext({ kind: 'text', text });
      assert.equal(meta.totalChars, text.length);
      assert.equal(meta.invalidUtf8Replacements, 0);
      const r = await session.execute(`${digestOf('context')}\nprint(context.index('€'))`);
      assert.equal(r.stdout, `${sha(text)} ${text.length} 0\n${index}\n`);
    });
  }

  it('an invalid byte late in a large file is replaced and counted, the rest exact', async () => {
    const bytes = Buffer.alloc(3 * MB, 'k');
    bytes[2 * MB + 5] = 0xff;
    const path = join(dir, 'late-invalid.log');
    writeFileSync(path, bytes);
    const meta = await session.bindContext({ kind: 'plan', plan: await planPaths([path], { cwd: dir }) });
    assert.equal(meta.invalidUtf8Replacements, 1);
    const expected = bytes.toString('utf8'); // the same maximal-subpart replacement as Python's decoder
    const r = await session.execute(`${digestOf('context')}\nprint(context.index('\\ufffd'))`);
    assert.equal(r.stdout, `${sha(expected)} ${expected.length} 1\n${2 * MB + 5}\n`);
  });

  it('a folder of large ASCII, large non-ASCII and small files binds each one exactly, in order', async () => {
    const files = [
      { path: 'a/small.txt', content: 'small\n' },
      { path: 'b/big-ascii.log', content: 'A'.repeat(3 * MB) },
      { path: 'c/empty.txt', content: '' },
      { path: 'd/big-accented.log', content: `${'é'.repeat(MB)}${'z'.repeat(MB)}` },
      { path: 'e/ascii-then-emoji.log', content: `${'q'.repeat(2 * MB)}🙂` },
      { path: 'f/tail.txt', content: 'tail' },
    ];
    const meta = await session.bindContext({ kind: 'files', files });
    assert.equal(meta.fileCount, files.length);
    const r = await session.execute(
      `import hashlib\nprint(list(context) == ${JSON.stringify(files.map((f) => f.path))})\nfor k, v in context.items():\n    print(hashlib.sha256(v.encode('utf-8')).hexdigest(), len(v))`,
    );
    // Python counts code points: the emoji is one, where a JS string has two UTF-16 units.
    assert.equal(r.stdout, `True\n${files.map((f) => `${sha(f.content)} ${[...f.content].length}\n`).join('')}`);
  });

  it('a large bind aborted in the middle leaves nothing behind, and the next large bind is whole', async () => {
    const path = join(dir, 'shrinks.log');
    writeFileSync(path, 'q'.repeat(6 * MB));
    const plan = await planPaths([path], { cwd: dir });
    truncateSync(path, 2 * MB);
    await assert.rejects(session.bindContext({ kind: 'plan', plan }), ContextChangedError);
    const text = 'r'.repeat(5 * MB);
    await session.bindContext({ kind: 'text', text });
    const r = await session.execute(digestOf('context'));
    assert.equal(r.stdout, `${sha(text)} ${text.length} 0\n`);
  });

  it('a cell that sends the text target requests itself gets errors, and the REPL goes on', async () => {
    const r = await session.execute(
      [
        'import os',
        'results = []',
        "for request in (b'T5', b'Wabc', b'P', b'T', b'N100', b'C5'):",
        "    fd = os.open('/dev/rlm', os.O_RDWR)",
        '    try:',
        '        os.write(fd, request)',
        "        results.append('accepted')",
        '    except OSError as e:',
        "        results.append('refused')",
        '    finally:',
        '        os.close(fd)',
        'print(results)',
      ].join('\n'),
    );
    assert.equal(r.stdout, `${JSON.stringify(Array(6).fill('refused')).replaceAll('"', "'").replaceAll(',', ', ')}\n`);
    const text = 's'.repeat(2 * MB);
    await session.bindContext({ kind: 'text', text });
    const after = await session.execute(digestOf('context'));
    assert.equal(after.stdout, `${sha(text)} ${text.length} 0\n`);
  });
});
