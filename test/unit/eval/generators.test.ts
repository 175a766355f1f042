// The generators: deterministic for a seed, sized to the requested length, and with answers that an
// independent reading of the generated text confirms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { generateTask, planTasks, parseSuiteList, UnknownSuiteError } from '../../../src/eval/tasks/suites';
import { generateNiah } from '../../../src/eval/tasks/niahTask';
import { generateOolong } from '../../../src/eval/tasks/oolongTask';
import type { OolongQuestionKind } from '../../../src/eval/tasks/oolongTask';
import { generatePairs } from '../../../src/eval/tasks/pairsTask';
import { generateCode } from '../../../src/eval/tasks/codeTask';
import type { CodeQuestionKind } from '../../../src/eval/tasks/codeTask';
import { CodeCorpusError } from '../../../src/eval/tasks/codeCorpus';
import type { BenchTask } from '../../../src/eval/tasks/taskTypes';
import { classifyInstance, parseRecordLine } from '../../../src/eval/scripted/ruleClassifier';

// A real source tree for `--code-root`: this repository's own sources (the default corpus is generated).
const realCodeRoot = resolve(__dirname, '../../../src');

function text(task: BenchTask): string {
  assert.equal(task.context.kind, 'text');
  return String(task.context.kind === 'text' ? task.context.text : '');
}

test('every suite is deterministic for a seed and differs across seeds', () => {
  for (const suite of parseSuiteList('niah,oolong,pairs,code')) {
    const [spec] = planTasks([suite], [8_000], 1, 7);
    const a = generateTask(spec!, {});
    const b = generateTask(spec!, {});
    assert.deepEqual(a, b, suite);
    const [other] = planTasks([suite], [8_000], 1, 8);
    const c = generateTask(other!, {});
    assert.notDeepEqual({ q: c.question, a: c.answer, ctx: c.contextChars }, { q: a.question, a: a.answer, ctx: a.contextChars }, suite);
  }
});

test('contexts are about 4 characters per requested token, from 8k to 1m', () => {
  for (const lengthTokens of [8_000, 32_000, 1_000_000]) {
    for (const spec of planTasks(['niah', 'oolong', 'pairs', 'code'], [lengthTokens], 1, 1)) {
      const task = generateTask(spec, {});
      const ratio = task.contextChars / (lengthTokens * 4);
      // The code suite adds whole files, so it may overshoot by up to one file (256 KB).
      const slack = spec.suite === 'code' ? (256 * 1024) / (lengthTokens * 4) : 0.02;
      assert.ok(ratio >= 0.98 && ratio <= 1 + slack, `${task.id}: ${task.contextChars} chars`);
    }
  }
});

test('a 10m-token needle task is 40 M characters with the key once', () => {
  const task = generateNiah({ lengthTokens: 10_000_000, seed: 3, index: 0 });
  const t = text(task);
  assert.equal(t.length, 40_000_000);
  assert.equal(t.split(`The secret key is ${task.answer}.`).length, 2);
});

test('niah: the key is the only number, placed at the requested depth', () => {
  const task = generateNiah({ lengthTokens: 32_000, seed: 11, index: 0 }, 0.25);
  const t = text(task);
  assert.match(task.answer, /^\d{8}$/);
  assert.deepEqual(t.match(/\d+/g), [task.answer]);
  const at = t.indexOf(task.answer) / t.length;
  assert.ok(Math.abs(at - 0.25) < 0.01, `depth ${at}`);
});

function recount(task: BenchTask): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text(task).split('\n')) {
    const rec = parseRecordLine(line);
    if (!rec) continue;
    const label = classifyInstance(rec.instance);
    assert.ok(label, `unclassifiable instance: ${rec.instance}`);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return counts;
}

test('oolong: count, compare and most-common answers match a recount of the records', () => {
  for (const kind of ['count', 'compare', 'most-common'] as OolongQuestionKind[]) {
    for (const seed of [1, 2, 3]) {
      const task = generateOolong({ lengthTokens: 32_000, seed, index: 0 }, kind);
      const counts = recount(task);
      const labels = [...task.question.matchAll(/with the label '([^']+)'|as the label '([^']+)'|Is the label '([^']+)'/g)].map((m) => m[1] ?? m[2] ?? m[3]);
      const n = (l: string | undefined): number => counts.get(l!) ?? 0;
      if (task.scorer === 'numeric') assert.equal(task.answer, String(n(labels[0])), task.question);
      else if (kind === 'compare') {
        const [a, b] = labels;
        assert.equal(task.answer, n(a) > n(b) ? 'more common than' : n(a) < n(b) ? 'less common than' : 'same frequency as');
      } else {
        const best = Math.max(...counts.values());
        assert.equal(n(task.answer), best);
      }
      assert.ok(!/numeric value|human being|abstract concept/.test(text(task)), 'labels must not appear in the context');
    }
  }
});

test('pairs: the answer lists exactly the pairs of users meeting the condition, recomputed from the text', () => {
  for (const condition of ['both', 'without'] as const) {
    const task = generatePairs({ lengthTokens: 32_000, seed: 5, index: 0 }, condition);
    const m = /at least one instance with the label '([^']+)' and (?:at least one|no) instance with the label '([^']+)'/.exec(task.question)!;
    const users = new Map<number, Set<string>>();
    for (const line of text(task).split('\n')) {
      const rec = parseRecordLine(line);
      if (rec) users.set(rec.user, (users.get(rec.user) ?? new Set()).add(classifyInstance(rec.instance)!));
    }
    const ok = [...users].filter(([, s]) => s.has(m[1]!) && (condition === 'both' ? s.has(m[2]!) : !s.has(m[2]!))).map(([u]) => u).sort();
    const expected = ok.flatMap((a, i) => ok.slice(i + 1).map((b) => `${a}, ${b}`));
    assert.ok(ok.length >= 8, `only ${ok.length} qualifying users`);
    assert.deepEqual(task.answer.split('\n'), expected);
  }
});

function files(task: BenchTask): Map<string, string> {
  assert.equal(task.context.kind, 'files');
  return new Map(task.context.kind === 'files' ? task.context.files.map((f) => [f.path, String(f.content)]) : []);
}

/** Checks a code task's answer by an independent reading of its files. */
function assertCodeAnswerHolds(task: BenchTask): void {
  const kind: CodeQuestionKind = /defines the function/.test(task.question) ? 'defines' : /lists `/.test(task.question) ? 'dependsOn' : 'callers';
  assert.equal(task.choices?.length, 4);
  const correct = task.choices![['A', 'B', 'C', 'D'].indexOf(task.answer)]!;
  const ctx = files(task);
  if (kind === 'defines') {
    const name = /defines the function `([^`]+)`/.exec(task.question)![1]!;
    const definers = [...ctx].filter(([, t]) => new RegExp(`function\\s*\\*?\\s*${name.replace(/\$/g, '\\$')}\\s*\\(`).test(t)).map(([p]) => p);
    assert.deepEqual(definers, [correct]);
  } else if (kind === 'dependsOn') {
    const dep = /lists `([^`]+)`/.exec(task.question)![1]!;
    const owners = [...ctx]
      .filter(([p]) => p.endsWith('package.json'))
      .map(([, t]) => { try { return JSON.parse(t) as { name?: string; dependencies?: Record<string, string> }; } catch { return {}; } })
      .filter((j) => j.dependencies && dep in j.dependencies)
      .map((j) => j.name);
    assert.deepEqual(owners, [correct]);
  } else {
    const name = /a call to `([^`]+)`/.exec(task.question)![1]!;
    // An independent count: any `name(` not preceded by an identifier character, minus pure definitions.
    let n = 0;
    for (const t of ctx.values()) {
      const all = t.split(new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}\\s*\\(`)).length - 1;
      const defs = t.split(new RegExp(`function\\s*\\*?\\s*${name.replace(/\$/g, '\\$')}\\s*\\(`)).length - 1;
      if (all > defs) n++;
    }
    assert.equal(correct, String(n));
  }
}

test('code: on the generated tree, every kind of question is asked and its answer holds', () => {
  for (const kind of ['defines', 'callers', 'dependsOn'] as CodeQuestionKind[]) {
    const task = generateCode({ lengthTokens: 1_000_000, seed: 9, index: 0 }, undefined, kind);
    assert.match(task.question, kind === 'defines' ? /defines the function/ : kind === 'callers' ? /a call to/ : /lists `/);
    assertCodeAnswerHolds(task);
  }
});

test('code: the generated tree depends on the seed alone, at every length', () => {
  for (const lengthTokens of [8_000, 32_000]) {
    const a = generateCode({ lengthTokens, seed: 4, index: 1 }, undefined);
    assert.deepEqual(generateCode({ lengthTokens, seed: 4, index: 1 }, undefined), a);
    const paths = [...files(a).keys()];
    assert.ok(paths.some((p) => p.endsWith('package.json')) && paths.some((p) => p.endsWith('.js')), paths.join(', '));
    assertCodeAnswerHolds(a);
  }
});

test('code: with --code-root, questions are about the real files on disk', () => {
  for (const kind of ['defines', 'callers'] as CodeQuestionKind[]) {
    const task = generateCode({ lengthTokens: 32_000, seed: 9, index: 0 }, realCodeRoot, kind);
    for (const [path, content] of files(task)) assert.equal(content, readFileSync(join(realCodeRoot, path), 'utf8'));
    assertCodeAnswerHolds(task);
  }
});

test('bad input: an unknown suite and a missing corpus fail with actionable errors', () => {
  assert.throws(() => parseSuiteList('niah,haystack'), (e: unknown) => e instanceof UnknownSuiteError && /choose from niah, oolong, pairs, code/.test(e.message));
  assert.throws(() => generateCode({ lengthTokens: 8_000, seed: 1, index: 0 }, '/nonexistent/corpus'), (e: unknown) => e instanceof CodeCorpusError && /--code-root/.test(e.message));
});
