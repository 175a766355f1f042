// Maps a suite name to its generator, and builds the task list of an eval run.
import { generateCode } from './codeTask';
import { generateNiah } from './niahTask';
import { generateOolong } from './oolongTask';
import { generatePairs } from './pairsTask';
import { taskSeed } from './seededRandom';
import { formatLength } from './taskLength';
import { SUITE_NAMES } from './taskTypes';
import type { BenchTask, SuiteName } from './taskTypes';

export class UnknownSuiteError extends Error {
  constructor(readonly suite: string) {
    super(`unknown suite "${suite}"; choose from ${SUITE_NAMES.join(', ')}`);
    this.name = 'UnknownSuiteError';
  }
}

export function parseSuiteList(input: string): SuiteName[] {
  const names = input.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UnknownSuiteError(input);
  for (const n of names) if (!(SUITE_NAMES as readonly string[]).includes(n)) throw new UnknownSuiteError(n);
  return [...new Set(names)] as SuiteName[];
}

interface TaskSpec {
  suite: SuiteName;
  lengthTokens: number;
  index: number;
  seed: number;
  /** The same id the generated task will carry, known before generating (for resume). */
  id: string;
}

export function planTasks(suites: readonly SuiteName[], lengths: readonly number[], perCell: number, baseSeed: number): TaskSpec[] {
  const out: TaskSpec[] = [];
  for (const suite of suites)
    for (const lengthTokens of lengths)
      for (let index = 0; index < perCell; index++)
        out.push({ suite, lengthTokens, index, seed: taskSeed(baseSeed, suite, lengthTokens, index), id: `${suite}-${formatLength(lengthTokens)}-${index}` });
  return out;
}

interface GenerateOptions {
  /** A real source tree for the code suite to read; undefined: the tree generated from each task's seed. */
  codeRoot?: string;
}

export function generateTask(spec: TaskSpec, options: GenerateOptions): BenchTask {
  const request = { lengthTokens: spec.lengthTokens, seed: spec.seed, index: spec.index };
  switch (spec.suite) {
    case 'niah':
      return generateNiah(request);
    case 'oolong':
      return generateOolong(request);
    case 'pairs':
      return generatePairs(request);
    case 'code':
      return generateCode(request, options.codeRoot);
  }
}
