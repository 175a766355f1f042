// A folder over the eager limit, bound lazily through the real REPL: the mapping's behaviour (keys,
// order, len, in, get, items, values, read-only), texts fetched when read and counted per cell, the
// budget error of an operation that needs everything at once, confinement (a symlink out, `..`, an
// excluded file, a folder swapped for a link after the walk, a file swapped for a link out or a FIFO),
// host search (ripgrep and the scan), a pattern that backtracks without end, and the Python fallback
// for patterns only Python runs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../../../src/core/context/contextPlan';
import type { ContextPlan } from '../../../../src/core/context/contextTypes';
import { SandboxViolationError } from '../../../../src/core/repl/replErrors';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { recordingBridge, startSession } from './replTestKit';

const KB = 1024;

function makeFolder(dir: string): void {
  mkdirSync(join(dir, 'proj', 'src'), { recursive: true });
  mkdirSync(join(dir, 'proj', 'ignored'), { recursive: true });
  for (let i = 0; i < 300; i++) writeFileSync(join(dir, 'proj', 'src', `f${String(i).padStart(3, '0')}.txt`), `file ${i}\n${'x'.repeat(8 * KB)}\nend ${i}\n`);
  writeFileSync(join(dir, 'proj', 'src', 'needle.txt'), 'alpha\nbeta\nthe code is 4417-ZETA\nété 💡 needle here\n');
  writeFileSync(join(dir, 'proj', '.gitignore'), 'ignored/\n');
  writeFileSync(join(dir, 'proj', 'ignored', 'secret.txt'), 'the code is 9999-SECRET\n');
  writeFileSync(join(dir, 'outside.txt'), 'the code is 0000-OUTSIDE\n');
  symlinkSync(join(dir, 'outside.txt'), join(dir, 'proj', 'src', 'link-out.txt'));
}

describe('REPL session: lazy folder context', () => {
  let session: ReplSession;
  let dir: string;
  let plan: ContextPlan;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-lazy-'));
    makeFolder(dir);
    // Eager limit 1 MB: the folder (~2.5 MB) is bound lazily, with a 1 MB budget in the REPL.
    session = await startSession({ bridge: recordingBridge().handler, contextLimitBytes: 1024 * KB, ripgrepPath: '/usr/bin/rg' });
    plan = await planPaths(['proj'], { cwd: dir, maxTotalBytes: 1024 * KB });
  });
  after(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plans the folder lazily and tells the model the mode', async () => {
    assert.ok(plan.lazy);
    const meta = await session.bindContext({ kind: 'plan', plan });
    assert.equal(meta.mode, 'lazy');
    assert.equal(meta.fileCount, 302); // with proj/.gitignore, as the eager walk lists it
    assert.equal(meta.cacheBudgetBytes, 1024 * KB);
    const r = await session.execute("m = context_meta()\nprint(m['mode'], m['file_count'], m['cache_budget_bytes'])");
    assert.equal(r.stdout, `lazy 302 ${1024 * KB}\n`);
  });

  it('keys, order, len, in, get, indexing and read-only behave as the eager dict does', async () => {
    await session.bindContext({ kind: 'plan', plan });
    const r = await session.execute(
      [
        'ks = list(context)',
        "print(len(context), ks[0], ks[-1], 'proj/src/needle.txt' in context, 'proj/ignored/secret.txt' in context, 'proj/src/link-out.txt' in context)",
        "print(context['proj/src/needle.txt'].splitlines()[2], context.get('nope', 'dflt'), context.get('proj/src/f001.txt').split()[1])",
        'try:\n    context["a"] = "b"\nexcept TypeError as e:\n    print("TypeError", "read-only" in str(e))',
        'print(repr(context)[:14])',
      ].join('\n'),
    );
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.equal(r.stdout, '302 proj/.gitignore proj/src/needle.txt True False False\nthe code is 4417-ZETA dflt 1\nTypeError True\n<lazy context:\n');
    assert.equal(r.contextReads?.files, 2);
    assert.deepEqual(r.contextReads?.paths, ['proj/src/needle.txt', 'proj/src/f001.txt']);
  });

  it('items() and values() stream every file within the budget', async () => {
    await session.bindContext({ kind: 'plan', plan });
    const r = await session.execute(
      [
        'total = 0\nends = 0',
        'for p, t in context.items():\n    total += len(t)\n    ends += t.count("end ")',
        'print(ends, sum(1 for v in context.values() if v.startswith("file ")))',
        'print(context._cached <= context.budget // 2)',
      ].join('\n'),
    );
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.equal(r.stdout, '300 300\nTrue\n');
    assert.ok((r.contextReads?.bytes ?? 0) > 2 * 1024 * KB);
  });

  it('an operation that needs everything at once fails fast and says how to proceed', async () => {
    await session.bindContext({ kind: 'plan', plan });
    const r = await session.execute('everything = "\\n".join(context.values())');
    assert.equal(r.error?.type, 'ContextBudgetError');
    assert.match(r.error?.message ?? '', /search\(pattern/);
    assert.match(r.error?.message ?? '', /llm_query_batched/);
    const again = await session.execute('copy = dict(context)');
    assert.equal(again.error?.type, 'ContextBudgetError');
    const after = await session.execute("print(len(context['proj/src/f002.txt']))");
    assert.equal(after.error, undefined);
  });

  it('search runs on the host with path and line, over listed files only', async () => {
    await session.bindContext({ kind: 'plan', plan });
    const r = await session.execute("hs = search(r'code is \\d+-[A-Z]+')\nprint(hs)\nprint(search('needle')[0]['start'] == context['proj/src/needle.txt'].index('needle'))");
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.equal(r.stdout.split('\n')[0], "[{'path': 'proj/src/needle.txt', 'line': 3, 'start': 15, 'text': 'the code is 4417-ZETA'}]");
    assert.equal(r.stdout.split('\n')[1], 'True');
    assert.equal(r.contextReads?.searches, 2);
    const some = await session.execute("print(len(search('^end ', max_hits=5)), len(search('^end ', paths=['proj/src/f010.txt', 'proj/src/f011.txt'])))");
    assert.equal(some.stdout, '5 2\n');
  });

  it('look-behind runs on the host scan; a pattern only Python has falls back with a note', async () => {
    await session.bindContext({ kind: 'plan', plan });
    const r = await session.execute("print(search(r'(?<=is )\\d{4}'))");
    assert.equal(r.stdout, "[{'path': 'proj/src/needle.txt', 'line': 3, 'start': 23, 'text': 'the code is 4417-ZETA'}]\n");
    const py = await session.execute("print(search(r'(?>is )\\d{4}', paths=['proj/src/needle.txt']))");
    assert.match(py.stderr, /scanning the files in Python/);
    assert.equal(py.stdout, "[{'path': 'proj/src/needle.txt', 'line': 3, 'start': 20, 'text': 'the code is 4417-ZETA'}]\n");
  });

  it('confinement: `..`, absolute paths, excluded files and the symlink out are not served, even by a raw request', async () => {
    await session.bindContext({ kind: 'plan', plan });
    const attempts = ['proj/../outside.txt', join(dir, 'outside.txt'), 'proj/ignored/secret.txt', 'proj/src/link-out.txt', '../outside.txt'];
    const r = await session.execute(
      [
        'import _rlm_channel as P',
        'out = []',
        `for p in ${JSON.stringify(attempts)}:`,
        '    try:\n        out.append(P.context_read([p]))\n    except OSError as e:\n        out.append("refused" if "no file" in str(e) else str(e))',
        'print(out)',
        'try:\n    P.context_call({"kind": "context_search", "pattern": "SECRET", "flags": "", "maxHits": 5, "paths": ["proj/ignored/secret.txt"]})\nexcept OSError as e:\n    print("search refused", "no file" in str(e))',
        'print(search("SECRET|OUTSIDE"))',
      ].join('\n'),
    );
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.equal(r.stdout, "['refused', 'refused', 'refused', 'refused', 'refused']\nsearch refused True\n[]\n");
    // A malformed request is a broken or hostile REPL: the process is killed and the session (the run) ends,
    // as for any bad bridge frame (docs/security.md, "The channel"). The next tests get a new session.
    await assert.rejects(session.execute('import _rlm_channel as P\nP.context_call({"kind": "context_read", "paths": "x"})'), SandboxViolationError);
    await assert.rejects(session.execute('print(1)'), SandboxViolationError);
    await session.close();
    session = await startSession({ bridge: recordingBridge().handler, contextLimitBytes: 1024 * KB, ripgrepPath: '/usr/bin/rg' });
  });

  it('a folder swapped for a link out after the walk is not read through it', async () => {
    const sub = join(dir, 'proj2');
    mkdirSync(join(sub, 'a'), { recursive: true });
    writeFileSync(join(sub, 'a', 'f.txt'), 'inside\n');
    writeFileSync(join(sub, 'b.txt'), 'y'.repeat(4 * KB));
    const plan2 = await planPaths(['proj2'], { cwd: dir, maxTotalBytes: 1 * KB });
    await session.bindContext({ kind: 'plan', plan: plan2 });
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', 'f.txt'), 'outside secret\n');
    renameSync(join(sub, 'a'), join(dir, 'moved'));
    symlinkSync(join(dir, 'elsewhere'), join(sub, 'a'));
    const r = await session.execute("try:\n    print(context['proj2/a/f.txt'])\nexcept KeyError as e:\n    print('left out', 'link-outside' in str(e))\nprint(len(context))");
    assert.equal(r.stdout, 'left out True\n1\n');
  });

  it('a listed file swapped for a link out: search() and context[...] refuse it, never the outside line', async () => {
    const sub = join(dir, 'proj3');
    mkdirSync(sub);
    writeFileSync(join(sub, 'code.txt'), 'the code is 1111-INSIDE\n');
    writeFileSync(join(sub, 'pad.txt'), 'y'.repeat(4 * KB));
    const plan3 = await planPaths(['proj3'], { cwd: dir, maxTotalBytes: 1 * KB });
    await session.bindContext({ kind: 'plan', plan: plan3 });
    const control = await session.execute("print(search(r'code is \\d+')[0]['text'])");
    assert.equal(control.stdout, 'the code is 1111-INSIDE\n');
    await session.bindContext({ kind: 'plan', plan: plan3 });
    unlinkSync(join(sub, 'code.txt'));
    symlinkSync(join(dir, 'outside.txt'), join(sub, 'code.txt'));
    const r = await session.execute(
      "try:\n    print(search(r'code is \\d+'))\nexcept OSError as e:\n    print('refused:', e)\ntry:\n    print(context['proj3/code.txt'])\nexcept KeyError as e:\n    print('left out:', e)",
    );
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.doesNotMatch(r.stdout, /OUTSIDE/);
    assert.match(r.stdout, /^refused: context: invalid_context: search: proj3\/code\.txt became a link/);
    assert.match(r.stdout, /left out: .*link/);
  });

  it('a listed file that grew past the per-file limit while bound: search() keeps the other hits and says which file it left out', async () => {
    const sub = join(dir, 'proj5');
    mkdirSync(sub);
    writeFileSync(join(sub, 'a.txt'), 'the code is 1111\n');
    writeFileSync(join(sub, 'b.txt'), 'the code is 2222\n');
    writeFileSync(join(sub, 'pad.txt'), 'y'.repeat(4 * KB));
    const plan5 = await planPaths(['proj5'], { cwd: dir, maxTotalBytes: 1 * KB });
    await session.bindContext({ kind: 'plan', plan: plan5 });
    // A log rotated or a checkout in between: still a regular file in the folder, other bytes now.
    writeFileSync(join(sub, 'a.txt'), `the code is 1111\n${'z'.repeat(plan5.maxFileBytes + 1)}\n`);
    const r = await session.execute("print([h['text'] for h in search(r'code is \\d+')])");
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.equal(r.stdout, "['the code is 2222']\n");
    assert.match(r.stderr, /search: 1 file\(s\) changed on disk while searched and were left out: proj5\/a\.txt; search them again/);
  });

  it('a pattern that backtracks without end stops with a clear Python error, the host turning all along', async () => {
    const sub = join(dir, 'proj4');
    mkdirSync(sub);
    writeFileSync(join(sub, 'as.txt'), `${'a'.repeat(40)}\n`);
    writeFileSync(join(sub, 'pad.txt'), 'y'.repeat(4 * KB));
    await session.bindContext({ kind: 'plan', plan: await planPaths(['proj4'], { cwd: dir, maxTotalBytes: 1 * KB }) });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = performance.now();
    const r = await session.execute("try:\n    search('(a+)+(?=b)')\nexcept OSError as e:\n    print(e)");
    const ms = performance.now() - started;
    clearInterval(timer);
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.match(r.stdout, /^context: timeout: pattern took too long: "\(a\+\)\+\(\?=b\)" ran over 2\.0 s on proj4\/as\.txt (and 1 more )?and was stopped; simplify it/);
    assert.ok(ms < 6000, `ended in ${Math.round(ms)} ms (limit 2 s)`);
    assert.ok(ticks >= ms / 10 / 4, `${ticks} timer ticks in ${Math.round(ms)} ms`);
    const after = await session.execute("print(len(search('y+', max_hits=3)))");
    assert.equal(after.stdout, '1\n', 'the REPL and the host go on');
  });
});
