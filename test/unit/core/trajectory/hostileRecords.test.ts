// Every field of every line given the wrong type, one at a time: `rlm show`, `rlm export` (both formats)
// and the view's projection must report the line and go on, never crash. Covers our format and the
// Python reference's.
//
// Every mutated record of our format goes through the record check the reader applies to each line. A
// record the check refuses never reaches the readers beyond its problem line (the last test shows the
// line is skipped and the rest shown), so the readers run on one such mutation per line and outcome
// (refused as invalid, or kept as an unknown type); every mutation the check lets through, and every
// mutation of the header line, runs through all the readers. That keeps the sweep to a few seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { summarizeTrajectory } from '../../../../src/core/trajectory/trajectorySummary';
import { NotATrajectoryError } from '../../../../src/core/trajectory/trajectoryScanner';
import { checkEvent } from '../../../../src/core/trajectory/eventValidation';
import { toMarkdown } from '../../../../src/core/trajectory/exportMarkdown';
import { notebookJson, toNotebook } from '../../../../src/core/trajectory/exportIpynb';
import { formatSummary } from '../../../../src/cli/commands/show';
import { headerView } from '../../../../src/vscode/trajectory/runHeaderProjection';

const FIXTURES = resolve(__dirname, '../../../fixtures/trajectories');
const WRONG: unknown[] = [['a', 1], 7, { x: 1 }, null, 'text'];

/**
 * Each top-level field, and each field one level down, of each kind of line, replaced by each wrong value.
 * A kind is the line's type, whether it belongs to the first run (the root) or a child, and its set of
 * fields: lines of one kind go through the same code, so mutating every one of them (70 lines, 23 kinds
 * in sample.rlm.jsonl) only repeated the same cases and took the unit tier's longest 20 s.
 */
function* mutations(lines: Array<Record<string, unknown>>): Generator<{ index: number; path: string; lines: string[] }> {
  const rootRunId = lines.find((l) => typeof l.runId === 'string')?.runId;
  const kinds = new Set<string>();
  const serialized = lines.map((l) => JSON.stringify(l));
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const kind = JSON.stringify([line.type, line.runId === rootRunId, Object.keys(line).sort()]);
    // The reference implementation's lines have no runId: each is its own kind (there are few).
    if (typeof line.runId === 'string' && kinds.has(kind)) continue;
    kinds.add(kind);
    for (const key of Object.keys(line)) {
      if (key === 'format' || key === 'version') continue;
      const targets: Array<[string, (value: unknown) => Record<string, unknown>]> = [[key, (value) => ({ ...line, [key]: value })]];
      const inner = line[key];
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
        for (const sub of Object.keys(inner as object).slice(0, 6)) {
          targets.push([`${key}.${sub}`, (value) => ({ ...line, [key]: { ...(inner as Record<string, unknown>), [sub]: value } })]);
        }
      }
      for (const [path, mutate] of targets) {
        for (const value of WRONG) {
          const copy = [...serialized];
          copy[index] = JSON.stringify(mutate(value));
          yield { index, path: `${path}=${JSON.stringify(value)}`, lines: copy };
        }
      }
    }
  }
}

async function exercise(file: string): Promise<{ problems: number }> {
  let summary;
  try {
    summary = await summarizeTrajectory(file);
  } catch (error) {
    // A first line that no longer says what the file is: a clear, typed refusal is the right outcome.
    if (error instanceof NotATrajectoryError) return { problems: 1 };
    throw error;
  }
  formatSummary(file, summary, 10);
  const read = await readTrajectory(file);
  if (read.tree) {
    toMarkdown(read.tree);
    notebookJson(toNotebook(read.tree));
    headerView(read.tree, { source: file, format: 'rlm', problems: { count: read.problems.length, first: [] } });
  }
  return { problems: read.problems.length };
}

/** Mutated files checked at once: each waits on the disk more than it computes. */
const IN_FLIGHT = 8;

for (const fixture of ['sample.rlm.jsonl', 'reference-basic.jsonl', 'reference-nested.jsonl']) {
  test(`${fixture}: a wrong type in any field is reported and the rest is shown, with no crash`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlm-hostile-'));
    try {
      const lines = readFileSync(join(FIXTURES, fixture), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      const all = [...mutations(lines)];
      assert.ok(all.length > 100, `only ${all.length} cases`);
      const format = fixture.endsWith('.rlm.jsonl') ? 'rlm' : 'reference';
      const outcomes = new Set<string>();
      const toRead = all.filter((mutation) => {
        if (format === 'reference' || mutation.index === 0) return true;
        const check = checkEvent(JSON.parse(mutation.lines[mutation.index]!));
        if (check.ok) return true;
        const outcome = `${mutation.index} ${'unknownType' in check ? 'unknown' : 'invalid'}`;
        if (outcomes.has(outcome)) return false;
        outcomes.add(outcome);
        return true;
      });
      // Each slot has its own file; slot k checks mutations k, k + IN_FLIGHT, k + 2 * IN_FLIGHT…
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async (_, slot) => {
          const file = join(dir, `${slot}-${fixture}`);
          // Rewritten in place through one descriptor: truncating and rewriting by name cost more than the checks.
          const fd = openSync(file, 'w');
          try {
            for (let i = slot; i < toRead.length; i += IN_FLIGHT) {
              const mutation = toRead[i]!;
              const bytes = Buffer.from(`${mutation.lines.join('\n')}\n`);
              writeSync(fd, bytes, 0, bytes.length, 0);
              ftruncateSync(fd, bytes.length);
              await assert.doesNotReject(exercise(file), `${fixture} line ${mutation.index + 1}: ${mutation.path}`);
            }
          } finally {
            closeSync(fd);
          }
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('a wrong type is reported with its line number, and the line is skipped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-hostile-'));
  try {
    const lines = readFileSync(join(FIXTURES, 'sample.rlm.jsonl'), 'utf8').split('\n').filter(Boolean);
    const index = lines.findIndex((l) => l.includes('"type":"run.finished"') && l.includes('"runId":"run-1"'));
    assert.ok(index > 0);
    const record = JSON.parse(lines[index]!) as Record<string, unknown>;
    lines[index] = JSON.stringify({ ...record, answer: ['an', 'array'] });
    const file = join(dir, 'bad.rlm.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const read = await readTrajectory(file);
    const problem = read.problems.find((p) => p.line === index + 1);
    assert.ok(problem, JSON.stringify(read.problems));
    assert.match(problem.message, /run\.finished\.answer should be a string, not an array; skipped/);
    assert.ok(read.tree, 'the rest of the run is still shown');
    const summary = await summarizeTrajectory(file);
    assert.match(formatSummary(file, summary, 10), new RegExp(`line ${index + 1}: invalid-record: run\\.finished\\.answer`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
