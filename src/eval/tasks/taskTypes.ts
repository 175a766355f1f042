// The shape every long-context task generator produces, and the scorers that grade answers.
import type { ContextSource } from '../../core/context/contextTypes';

export type SuiteName = 'niah' | 'oolong' | 'pairs' | 'code';
export const SUITE_NAMES: readonly SuiteName[] = ['niah', 'oolong', 'pairs', 'code'];

/** How an answer is graded; each kind maps to one function in scorers.ts. */
export type ScorerKind = 'exact' | 'numeric' | 'pairsF1' | 'multipleChoice';

export interface BenchTask {
  /** Stable id, e.g. "niah-32k-0"; results and resume key on it. */
  id: string;
  suite: SuiteName;
  /** The requested length in tokens (the context is about 4 characters per token of it). */
  lengthTokens: number;
  seed: number;
  context: ContextSource;
  /** Characters in the context, for reports. */
  contextChars: number;
  question: string;
  /** The expected answer, in the form the scorer compares against. */
  answer: string;
  scorer: ScorerKind;
  /** The options of a multiple-choice question, in the order lettered A, B, C, D. */
  choices?: string[];
}

export interface TaskRequest {
  lengthTokens: number;
  seed: number;
  /** Index of the task within its suite and length, part of the id. */
  index: number;
}

/** Characters per token assumed when sizing contexts (the usual rule of thumb for English and code). */
export const CHARS_PER_TOKEN = 4;
