// The result of a run an agent asked for, sized for the agent's context: the answer, its `path:line`
// references, the figures (turns, sub-calls, tokens, cost) and where the trajectory is; never the input.
// The whole point of asking RLM is that the input does not fit, so nothing here grows with it: the
// references are clipped to a line each and the text is cut to the caller's token budget.
import type { RunResult } from '../loop/loopTypes';
import { estimateTokens } from '../models/tokenEstimate';
import { referenceLabel } from '../../shared/text/referenceLabel';
import { formatDuration, formatTokenCount, plural } from '../../shared/text/format';
import { totalsCostText } from '../../shared/text/costText';

interface AgentReference {
  path: string;
  line: number;
  endLine?: number;
  /** The cited line(s), clipped: file text, to be read as data. */
  text: string;
}

interface AgentFigures {
  turns: number;
  subCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** null when a model's price is unknown. */
  costUsd: number | null;
  /** Some price was unknown: costUsd is then a lower bound or null. */
  costUnknown: boolean;
  /** Paid by the user's plan (a VS Code language model): said so, never "$0.00". */
  includedInPlan?: boolean;
  /** The cost in words, as every other surface says it (src/shared/text/costText.ts). */
  cost: string;
  wallTimeMs: number;
}

/** What the agent receives, as structured content (MCP) and rendered as text (both surfaces). */
export interface AgentAnswer {
  /** completed, forced (answered at a limit), limit, cancelled or error. */
  status: string;
  answer?: string;
  /** Set when the run ended without an answer: why, as a sentence. */
  error?: string;
  /** The run's last output when it ended without an answer: findings, not an answer. */
  partial?: string;
  references: AgentReference[];
  /** Citations of the answer not found in the input (a sign the model guessed). */
  unresolvedCitations: number;
  figures: AgentFigures;
  trajectory?: string;
  /** True when the answer or references were cut to fit the budget; the trajectory holds them whole. */
  truncated: boolean;
}

/** Without a budget from the caller: about 4,000 tokens, far below any agent's limit on a tool result. */
const DEFAULT_AGENT_TOKEN_BUDGET = 4000;
const REFERENCE_TEXT_CHARS = 160;
const MAX_REFERENCES = 50;
/** Below this the result is the status line and a cut answer: no references at all. */
const MIN_BUDGET_TOKENS = 60;

/** `local`: every model of the run is served with no per-token charge (isNoChargeEndpoint). */
export function agentAnswerOf(result: RunResult, trajectory: string | undefined, tokenBudget = DEFAULT_AGENT_TOKEN_BUDGET, local = false): AgentAnswer {
  const { totals } = result;
  const answered = result.answer !== undefined && (result.status === 'completed' || result.status === 'forced' || result.forced);
  const shaped: AgentAnswer = {
    status: result.forced && result.status !== 'forced' ? 'forced' : result.status,
    ...(answered ? { answer: result.answer } : {}),
    ...(!answered || result.forced ? { error: result.error?.message ?? `the run ended ${result.status} without an answer` } : {}),
    ...(!answered && result.partial !== undefined ? { partial: result.partial } : {}),
    references: (result.references ?? []).slice(0, MAX_REFERENCES).map((r) => ({ path: r.path, line: r.line, ...(r.endLine !== undefined && r.endLine !== r.line ? { endLine: r.endLine } : {}), text: clip(firstLines(r.text), REFERENCE_TEXT_CHARS) })),
    unresolvedCitations: result.unresolvedReferences?.length ?? 0,
    figures: {
      turns: totals.iterations,
      subCalls: totals.subCalls,
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      costUsd: totals.costUsd,
      costUnknown: totals.costUnknown,
      ...(totals.includedInPlan ? { includedInPlan: true } : {}),
      cost: totalsCostText(totals, local),
      wallTimeMs: totals.wallTimeMs,
    },
    ...(trajectory ? { trajectory } : {}),
    truncated: (result.references?.length ?? 0) > MAX_REFERENCES,
  };
  return fitToBudget(shaped, Math.max(MIN_BUDGET_TOKENS, tokenBudget));
}

/** Drops references from the end, then cuts the answer (and partial findings), until the text fits. */
function fitToBudget(shaped: AgentAnswer, budget: number): AgentAnswer {
  let current = shaped;
  while (estimateTokens(renderAgentAnswer(current)) > budget && current.references.length > 0) {
    current = { ...current, references: current.references.slice(0, Math.floor(current.references.length / 2)), truncated: true };
  }
  const over = estimateTokens(renderAgentAnswer(current)) - budget;
  if (over <= 0) return current;
  const cutChars = over * 4 + 80;
  const cut = (text: string | undefined): string | undefined => (text === undefined ? undefined : clip(text, Math.max(0, text.length - cutChars)));
  if (current.answer !== undefined) return { ...current, answer: cut(current.answer), truncated: true };
  if (current.partial !== undefined) return { ...current, partial: cut(current.partial), truncated: true };
  return current;
}

/** The text an agent reads: the answer, then the references, then one line of figures and the trajectory. */
export function renderAgentAnswer(shaped: AgentAnswer): string {
  const parts: string[] = [];
  if (shaped.answer !== undefined) parts.push(shaped.answer.trim());
  if (shaped.error) parts.push(`${shaped.answer !== undefined ? 'Note' : `No answer (${shaped.status})`}: ${shaped.error}`);
  if (shaped.partial !== undefined) parts.push(`Partial findings (the run's last output, not an answer):\n${shaped.partial.trim()}`);
  if (shaped.references.length) parts.push(`References:\n${shaped.references.map((r) => `- ${referenceLabel(r)}: ${r.text}`).join('\n')}`);
  const f = shaped.figures;
  const notes = [
    `${plural(f.turns, 'turn')}, ${plural(f.subCalls, 'sub-call')}, ${formatTokenCount(f.inputTokens + f.outputTokens)} tokens, ${f.cost}, ${formatDuration(f.wallTimeMs)}`,
    shaped.unresolvedCitations ? `${plural(shaped.unresolvedCitations, 'citation')} not found in the input` : undefined,
    shaped.truncated ? 'cut to fit; the trajectory holds it whole' : undefined,
    shaped.trajectory ? `trajectory: ${shaped.trajectory}` : undefined,
  ].filter(Boolean);
  parts.push(`RLM: ${notes.join('; ')}`);
  return parts.join('\n\n');
}

function firstLines(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
