import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { notebookJson, toLines, toNotebook, writeNotebook } from '../../../../src/core/trajectory/exportIpynb';
import { toMarkdown } from '../../../../src/core/trajectory/exportMarkdown';
import { clipMiddle, fenceFor, reasoningText } from '../../../../src/core/trajectory/exportText';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import type { RunNode } from '../../../../src/core/trajectory/treeTypes';
import { syntheticEvents } from '../../../fixtures/trajectories/generate';
import { nbformatViolations } from './nbformatCheck';

const fixtures = join(import.meta.dirname, '../../../fixtures/trajectories');

function syntheticTree(): RunNode {
  const b = new TreeBuilder();
  for (const e of syntheticEvents({ cells: 12, subCallsPerCell: 2, childEvery: 3 })) b.apply(e);
  return b.tree!;
}

test('the structural checker catches what nbformat 4.5 forbids (so a passing check means something)', () => {
  const bad = { nbformat: 4, nbformat_minor: 4, metadata: {}, cells: [{ cell_type: 'code', id: 'a b', metadata: {}, source: 1, outputs: [{ output_type: 'stream', name: 'out', text: 'x' }] }, { cell_type: 'markdown', id: 'x', metadata: {}, source: '', outputs: [] }] };
  const v = nbformatViolations(bad);
  for (const expected of [/nbformat_minor/, /lacks execution_count/, /id must match/, /source must be/, /name must be stdout/, /outputs, not allowed for markdown/]) {
    assert.ok(v.some((m) => expected.test(m)), `expected a violation matching ${expected}: ${v.join('; ')}`);
  }
});

test('the ipynb export is valid nbformat 4 with a markdown cell per turn and a code cell per cell', () => {
  const tree = syntheticTree();
  const nb = JSON.parse(notebookJson(toNotebook(tree, { toolVersion: '0.1.0' }))) as ReturnType<typeof toNotebook>;
  assert.deepEqual(nbformatViolations(nb), []);
  const markdown = nb.cells.filter((c) => c.cell_type === 'markdown');
  const code = nb.cells.filter((c) => c.cell_type === 'code');
  assert.equal(markdown.length, 2 + 12, 'provenance, summary, one per turn');
  assert.equal(code.length, 12);
  assert.match(markdown[0]!.source.join(''), /Do not run these cells on your machine/);
  assert.equal(nb.metadata.kernelspec, undefined, 'no kernel: running the model\'s code on the host takes a deliberate choice');
  assert.match(markdown[2]!.source.join(''), /^## Turn 1\n\nthe|^## Turn 1\n\n\w/);
  assert.ok(!markdown[2]!.source.join('').includes('```'), 'reasoning without the code block');
  const first = code[0]!;
  assert.equal(first.source.join(''), tree.turns[0]!.cells[0]!.code);
  assert.deepEqual(first.outputs![0], { output_type: 'stream', name: 'stdout', text: toLines(tree.turns[0]!.cells[0]!.stdout!) });
  const meta = first.metadata.rlm as { subCalls: Array<{ kind: string; usage: unknown; childRun?: { turns: number } }>; totals: { costUsd: number } };
  assert.equal(meta.subCalls.length, 2);
  assert.ok(meta.totals.costUsd > 0);
  const withChild = code[1]!.metadata.rlm as typeof meta;
  assert.equal(withChild.subCalls[0]!.kind, 'rlm_query');
  assert.equal(withChild.subCalls[0]!.childRun?.turns, 2);
  const errored = code[10]!;
  assert.deepEqual(errored.outputs!.map((o) => o.output_type), ['stream', 'error']);
  assert.equal((nb.metadata.rlm as { answer: string }).answer, '42 distinct errors');
});

test('the streamed notebook is the same document as the one built in memory', () => {
  const tree = syntheticTree();
  const parts: string[] = [];
  writeNotebook(tree, (text) => parts.push(text), { toolVersion: '0.1.0' });
  assert.ok(parts.length > 1, 'written in pieces');
  assert.deepEqual(JSON.parse(parts.join('')), JSON.parse(notebookJson(toNotebook(tree, { toolVersion: '0.1.0' }))));
});

test('reference-format files export to valid notebooks too', async () => {
  for (const name of ['reference-basic.jsonl', 'reference-nested.jsonl', 'reference-old.jsonl']) {
    const read = await readTrajectory(join(fixtures, name));
    assert.deepEqual(nbformatViolations(toNotebook(read.tree!)), [], name);
  }
});

test('the Markdown report has the question, answer, totals table and clipped turns', () => {
  const tree = syntheticTree();
  tree.turns[0]!.cells[0]!.stdout = `${'A'.repeat(3000)}END`;
  tree.turns[0]!.cells[0]!.code = 'print("```")';
  const md = toMarkdown(tree, { outputMaxChars: 500 });
  assert.match(md, /^# RLM run report\n\n\*\*Question:\*\* How many distinct errors/);
  assert.match(md, /## Answer\n\n42 distinct errors\n/);
  assert.match(md, /\| Turns \| 12 \|/);
  assert.match(md, /\| Sub-calls \| 40 \|/);
  assert.match(md, /\| Cost \| \$0\.\d+ \|/);
  assert.match(md, /## Turn 12/);
  assert.match(md, /characters omitted/);
  assert.ok(md.includes('END'), 'the tail of a clipped output is kept');
  assert.ok(md.includes('````python\nprint("```")\n````'), 'a fence longer than the code\'s backticks');
  assert.match(md, /#### Child run /);
  assert.ok(md.length < 60_000, `${md.length}`);
});

test('text helpers', () => {
  assert.equal(clipMiddle('abcdef', 10), 'abcdef');
  assert.match(clipMiddle('a'.repeat(100), 10), /^a{6}\n… \[90 characters omitted\] …\na{4}$/);
  assert.equal(reasoningText({ modelText: 'Think.\n```repl\nx = 1\n```\nMore.', cells: [{ code: 'x = 1' }] }), 'Think.\n\nMore.');
  // A block that did not run stays, as in the view; so does an unclosed block that ran, minus itself.
  assert.equal(reasoningText({ modelText: 'A:\n```text\n42\n```\n```repl\nx = 1', cells: [{ code: 'x = 1' }] }), 'A:\n```text\n42\n```');
  assert.equal(reasoningText({ modelText: '  Just words.  ', cells: [] }), 'Just words.');
  assert.equal(fenceFor('a ```` b'), '`````');
  assert.deepEqual(toLines('a\nb\n'), ['a\n', 'b\n']);
  assert.deepEqual(toLines('a\n\nb'), ['a\n', '\n', 'b']);
});

test('exports label the user\'s own cells as theirs', () => {
  const events = [...syntheticEvents({ cells: 1 })];
  const runId = events[0]!.runId;
  let seq = events.at(-1)!.seq;
  const builder = new TreeBuilder();
  for (const record of events) builder.apply(record);
  builder.apply({ type: 'cell.started', runId, turn: 2, cellId: 'u1', code: 'mine = 1', author: 'user', seq: ++seq, ts: 9_000 });
  builder.apply({ type: 'cell.finished', runId, cellId: 'u1', stdout: '', stderr: '', stdoutChars: 0, stderrChars: 0, newVariables: ['mine'], durationMs: 1, outIndex: 2, seq: ++seq, ts: 9_001 });
  const run = builder.tree!;
  assert.match(toMarkdown([run]), /# You \(your own cell, turn 2\)\n[\s\S]*mine = 1/);
  assert.match(notebookJson(toNotebook([run])), /You \(your own cell, turn 2\)/);
  assert.deepEqual(nbformatViolations(toNotebook([run])), []);
});
