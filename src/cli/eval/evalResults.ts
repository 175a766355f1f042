// The results of an evaluation on disk: a JSON file rewritten atomically after every task (so an
// interrupted run can resume), and a Markdown table beside it.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatLength } from '../../eval/tasks/taskLength';
import { markdownText } from '../../shared/text/untrustedText';
import { RESULTS_FILE, RESULTS_VERSION, SCRIPTED_LABEL, TABLE_FILE } from './evalTypes';
import type { EvalMode, EvalPlanRecord, EvalResultsFile, TaskResult } from './evalTypes';
import { formatCount } from '../../shared/text/format';

export class EvalResultsError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'EvalResultsError';
  }
}

export function loadResults(dir: string): EvalResultsFile | undefined {
  const path = join(dir, RESULTS_FILE);
  if (!existsSync(path)) return undefined;
  let data: EvalResultsFile;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as EvalResultsFile;
  } catch (error) {
    throw new EvalResultsError(path, `cannot read ${path}: ${(error as Error).message}; move it away to start afresh`);
  }
  if (data.version !== RESULTS_VERSION || !Array.isArray(data.results)) {
    throw new EvalResultsError(path, `${path} is not a version ${RESULTS_VERSION} results file; use another --out folder`);
  }
  return data;
}

export function saveResults(dir: string, data: EvalResultsFile): void {
  const path = join(dir, RESULTS_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(data, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  writeFileSync(join(dir, TABLE_FILE), markdownReport(data));
}

/** Why a saved evaluation cannot be resumed with this plan, or undefined when it can. */
export function planMismatch(saved: EvalPlanRecord, wanted: EvalPlanRecord): string | undefined {
  for (const key of ['suites', 'lengths', 'modes', 'tasksPerLength', 'seed', 'scripted'] as const) {
    if (JSON.stringify(saved[key]) !== JSON.stringify(wanted[key])) return `${key} differs (saved ${JSON.stringify(saved[key])}, now ${JSON.stringify(wanted[key])})`;
  }
  if (!wanted.scripted) {
    for (const key of ['root', 'sub'] as const) {
      if (saved[key].model !== wanted[key].model || saved[key].provider !== wanted[key].provider) {
        return `the ${key} model differs (saved ${saved[key].model}, now ${wanted[key].model})`;
      }
    }
  }
  return undefined;
}

export function resultKey(r: Pick<TaskResult, 'id' | 'mode'>): string {
  return `${r.id}/${r.mode}`;
}

interface SuiteScore {
  suite: string;
  mode: EvalMode;
  /** Mean score in percent. */
  percent: number;
  tasks: number;
}

export function suiteScores(results: readonly TaskResult[]): SuiteScore[] {
  const groups = new Map<string, TaskResult[]>();
  for (const r of results) groups.set(`${r.suite}\u0000${r.mode}`, [...(groups.get(`${r.suite}\u0000${r.mode}`) ?? []), r]);
  return [...groups].map(([key, rs]) => {
    const [suite, mode] = key.split('\u0000') as [string, EvalMode];
    return { suite, mode, percent: (100 * rs.reduce((s, r) => s + r.score, 0)) / rs.length, tasks: rs.length };
  });
}

const fmtCost = (c: number | null): string => (c === null ? 'unknown' : `$${c.toFixed(4)}`);
const fmtTime = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function note(r: TaskResult): string {
  const parts: string[] = [];
  if (r.truncated) parts.push(`truncated to ${formatCount(r.truncated.shownChars)} of ${formatCount(r.truncated.totalChars)} chars`);
  if (r.status !== 'completed') parts.push(r.status);
  // A model error's text in a Markdown table cell: one line, no pipe, and inert as Markdown.
  if (r.error) parts.push(markdownText(r.error.replace(/\s+/g, ' ').replace(/\|/g, '/').slice(0, 120)));
  return parts.join('; ');
}

/** One sentence on prompt caching across all tasks, or an empty line when nothing was served from a cache. */
function cacheLine(results: readonly TaskResult[]): string {
  const cached = results.reduce((n, r) => n + (r.cacheReadTokens ?? 0), 0);
  const saved = results.reduce((n, r) => n + (r.savedUsd ?? 0), 0);
  if (cached === 0 && saved === 0) return '';
  return `Prompt caching served ${formatCount(cached)} input tokens at the cache rate, saving ${fmtCost(saved)}.\n`;
}

export function markdownReport(data: EvalResultsFile): string {
  const lines = [
    `# rlm eval — ${data.label}`,
    '',
    `Root: ${data.plan.root.model}; sub: ${data.plan.sub.model}. Started ${data.startedAt}, updated ${data.updatedAt}${data.complete ? '' : ' (incomplete)'}.`,
    data.plan.scripted ? '\nThese are results of the scripted reference policy, which measure the scaffold, not a model.\n' : '',
    '| Suite | Mode | Score | Tasks |',
    '|---|---|---:|---:|',
    ...suiteScores(data.results).map((s) => `| ${s.suite} | ${s.mode} | ${s.percent.toFixed(1)}% | ${s.tasks} |`),
    '',
    cacheLine(data.results),
    '| Task | Length | Mode | Score | Input tok | Cached tok | Output tok | Cost | Saved | Wall time | Sub-calls | Iterations | Note |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...data.results.map(
      (r) =>
        `| ${r.id} | ${formatLength(r.lengthTokens)} | ${r.mode} | ${r.score.toFixed(3)} | ${r.inputTokens} | ${r.cacheReadTokens ?? 0} | ${r.outputTokens} | ${fmtCost(r.costUsd)} | ${fmtCost(r.savedUsd ?? 0)} | ` +
        `${fmtTime(r.wallTimeMs)} | ${r.subCalls} | ${r.iterations} | ${note(r)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

export function summaryText(data: EvalResultsFile): string {
  const head = data.plan.scripted ? `Scores (${SCRIPTED_LABEL}):` : `Scores (root ${data.plan.root.model}, sub ${data.plan.sub.model}):`;
  return [head, ...suiteScores(data.results).map((s) => `  ${s.suite.padEnd(8)} ${s.mode.padEnd(11)} ${s.percent.toFixed(1).padStart(5)}%  (${s.tasks} task${s.tasks === 1 ? '' : 's'})`)].join('\n');
}
