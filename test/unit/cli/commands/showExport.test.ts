import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultOutput, runExport } from '../../../../src/cli/commands/export';
import { runShow } from '../../../../src/cli/commands/show';
import { generateTrajectory } from '../../../fixtures/trajectories/generate';
import { nbformatViolations } from '../../core/trajectory/nbformatCheck';
import { bufferIo, tempDir } from '../../core/trajectory/tempDir';

const dir = tempDir('cli-show');
const fixtures = join(import.meta.dirname, '../../../fixtures/trajectories');
const native = join(dir, 'run.rlm.jsonl');
generateTrajectory(native, { cells: 5, subCallsPerCell: 2, childEvery: 4 });

test('rlm show prints status, answer, turns, sub-calls, tokens, cost, time and problems', async () => {
  const { io, out, err } = bufferIo();
  assert.equal(await runShow([native], io), 0, err());
  const text = out();
  for (const expected of [/Models: +root synthetic-root \(openai\), sub synthetic-sub \(openai\)/, /Status: +Answered/, /Answer: +42 distinct errors/, /Turns: +5 +Cells: +5 \(9 with child runs\)/, /Sub-calls: +14, 2 child runs/, /Tokens: +[\d,]+ in \/ [\d,]+ out/, /Cost: +\$0\.\d+/, /Time: +\d+(\.\d)? s/, /Sandbox: +all 4 layers on \(probed at start\)/, /Problems: +none/]) {
    assert.match(text, expected);
  }
});

test('rlm show reports problems with line numbers, and --json gives the summary as data', async () => {
  const lines = readFileSync(native, 'utf8').trim().split('\n');
  const cut = join(dir, 'cut.rlm.jsonl');
  writeFileSync(cut, `${lines.slice(0, -3).join('\n')}\n${lines.at(-3)!.slice(0, 20)}`);
  const { io, out } = bufferIo();
  assert.equal(await runShow([cut], io), 0);
  assert.match(out(), /Status: +Incomplete \(the file has no end\)/);
  assert.match(out(), new RegExp(`line ${lines.length - 2}: truncated-line`));
  assert.match(out(), /missing-end/);
  const json = bufferIo();
  assert.equal(await runShow([cut, '--json'], json.io), 0);
  const summary = JSON.parse(json.out()) as { status: string; problemCount: number; turns: number };
  assert.equal(summary.status, 'incomplete');
  assert.equal(summary.problemCount, 2);
  assert.equal(summary.turns, 5);
});

test('rlm show opens reference-format logs', async () => {
  const { io, out } = bufferIo();
  assert.equal(await runShow([join(fixtures, 'reference-basic.jsonl')], io), 0);
  assert.match(out(), /imported from the Python rlm log format/);
  assert.match(out(), /Question: +Which city is mentioned most often\?/);
  assert.match(out(), /Answer: +Paris/);
  assert.match(out(), /Models: +root gpt-5 \(openai\)/);
  assert.match(out(), /Cost: +≥ \$0\.00040/);
});

test('rlm show: clear errors and exit codes for bad input', async () => {
  const notTrajectory = join(dir, 'notes.txt');
  writeFileSync(notTrajectory, 'just some notes\n');
  const cases: Array<[string[], number, RegExp]> = [
    [[], 2, /missing <file>/],
    [['a', 'b'], 2, /exactly one file/],
    [[native, '--frobnicate'], 2, /Unknown option '--frobnicate'/],
    [[native, '--problems', 'x'], 2, /whole number/],
    [[notTrajectory], 1, /is not an RLM trajectory: it does not start with a JSON object/],
    [[join(dir, 'nope.rlm.jsonl')], 1, /does not exist/],
  ];
  for (const [argv, code, message] of cases) {
    const { io, err } = bufferIo();
    assert.equal(await runShow(argv, io), code, argv.join(' '));
    assert.match(err(), message);
  }
});

test('rlm export writes a valid notebook and a Markdown report, from ours and reference files', async () => {
  const { io, out, err } = bufferIo();
  assert.equal(await runExport([native, '--to', 'ipynb'], io), 0, err());
  const nbPath = join(dir, 'run.ipynb');
  assert.match(out(), new RegExp(`Wrote ${nbPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.deepEqual(nbformatViolations(JSON.parse(readFileSync(nbPath, 'utf8'))), []);
  const mdPath = join(dir, 'ref.md');
  assert.equal(await runExport([join(fixtures, 'reference-nested.jsonl'), '--to=md', '-o', mdPath], bufferIo().io), 0);
  const md = readFileSync(mdPath, 'utf8');
  assert.match(md, /## Answer\n\ndone/);
  assert.match(md, /Child run .*depth 2/);
  assert.equal(defaultOutput('/x/rlm_2026.jsonl', 'md'), '/x/rlm_2026.md');
});

test('rlm export: usage errors', async () => {
  const cases: Array<[string[], RegExp]> = [
    [[native], /missing --to/],
    [[native, '--to', 'pdf'], /--to must be ipynb or md/],
    [[native, '--to', 'md', '-o', native], /overwrite the input/],
    [[native, '--to'], /Option '--to <value>' argument missing/],
    [[native, '--to', 'md', '-o', 'a.md', '--output', 'b.md'], /give the output once/],
  ];
  for (const [argv, message] of cases) {
    const { io, err } = bufferIo();
    assert.equal(await runExport(argv, io), 2, argv.join(' '));
    assert.match(err(), message);
  }
  const { io, err } = bufferIo();
  assert.equal(await runExport([join(dir, 'missing.rlm.jsonl'), '--to', 'md'], io), 1);
  assert.match(err(), /does not exist/);
  assert.ok(!existsSync(join(dir, 'missing.md')));
});
