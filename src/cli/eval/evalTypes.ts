// The shapes of an evaluation: its configuration, one result per task and mode, and the results file.
import type { SuiteName } from '../../eval/tasks/taskTypes';
import type { ModelRef } from '../../core/trajectory/events';

export type EvalMode = 'rlm' | 'direct' | 'rlm-no-sub';
export const EVAL_MODES: readonly EvalMode[] = ['rlm', 'direct', 'rlm-no-sub'];

export const RESULTS_FILE = 'results.json';
export const TABLE_FILE = 'results.md';
export const RESULTS_VERSION = 1;

/** What identifies an evaluation: a resume must match it exactly. */
export interface EvalPlanRecord {
  suites: SuiteName[];
  lengths: number[];
  modes: EvalMode[];
  tasksPerLength: number;
  seed: number;
  scripted: boolean;
  root: ModelRef;
  sub: ModelRef;
}

export interface TaskResult {
  id: string;
  suite: SuiteName;
  lengthTokens: number;
  mode: EvalMode;
  /** In [0, 1]. */
  score: number;
  /** completed | forced | limit | cancelled | error (the loop's status; direct mode uses completed/error). */
  status: string;
  /** The answer given and the expected one, clipped for the file. */
  answer: string | null;
  expected: string;
  error?: string;
  inputTokens: number;
  outputTokens: number;
  /** null when a model's price is unknown. */
  costUsd: number | null;
  /** Input tokens the provider served from its prompt cache (billed at its cache rate). */
  cacheReadTokens?: number;
  /** What prompt caching saved against full-price input, in USD. */
  savedUsd?: number;
  wallTimeMs: number;
  subCalls: number;
  iterations: number;
  contextChars: number;
  /** direct mode: how much of the context fit in the prompt. */
  truncated?: { shownChars: number; totalChars: number };
  /** Path of the trajectory (rlm modes: .rlm.jsonl; direct: a JSON record of the exchange). */
  trajectory: string;
  /** True for results of the scripted reference policy: never model results. */
  scripted: boolean;
}

export interface EvalResultsFile {
  version: typeof RESULTS_VERSION;
  /** "scripted reference policy (not a model)" or "model". */
  label: string;
  plan: EvalPlanRecord;
  startedAt: string;
  updatedAt: string;
  /** Set once every planned task has a result. */
  complete: boolean;
  results: TaskResult[];
}

export const SCRIPTED_LABEL = 'scripted reference policy (not a model)';
