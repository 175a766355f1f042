// The .rlm.jsonl file format: a header line, then one persisted event per line. The header and the
// record union are versioned here so that readers of later versions can still open version-1 files.
import type { ContextMetadata, TargetDescription } from '../context/contextTypes';
import type { SandboxProtections } from '../repl/replTypes';
import type { EventRecord, ModelRef, RunConfigRecord, RunEventType } from './events';

export const TRAJECTORY_FORMAT = 'rlm-trajectory';
export const TRAJECTORY_VERSION = 1;
export const TRAJECTORY_EXTENSION = '.rlm.jsonl';

/** First line of every .rlm.jsonl file. Describes the input by paths and sizes, never its contents. */
interface TrajectoryHeaderV1 {
  format: typeof TRAJECTORY_FORMAT;
  version: 1;
  /** Version of the tool that wrote the file (the extension's / CLI's package version). */
  toolVersion: string;
  /** ISO 8601 start time. */
  startedAt: string;
  question: string;
  target?: TargetDescription;
  context: ContextMetadata;
  /** Limits and models; never keys. */
  config: RunConfigRecord;
  models: { root: ModelRef; sub: ModelRef };
  protections: SandboxProtections;
  /** The root run's id, so a reader can tell the root from child runs before the first event. */
  runId?: string;
  /** The chat conversation the run was asked in (VS Code): a question and its follow-ups share it. */
  conversationId?: string;
  /** Set when an agent asked the question through a tool (VS Code's rlm_ask, `rlm mcp`), not a person. */
  askedBy?: AskedBy;
}

/** Who asked a run started by an agent: through which surface, and the client's own name when it gave one. */
export interface AskedBy {
  kind: 'agent';
  via: 'vscode-tool' | 'mcp';
  /** The MCP client's name (e.g. "claude-code") as it announced itself: untrusted text, shown only. */
  client?: string;
}

export type TrajectoryHeader = TrajectoryHeaderV1;

/** Events that exist only live: the writer drops them (model.output and cell.finished carry the whole text). */
const LIVE_ONLY_EVENT_TYPES: ReadonlySet<RunEventType> = new Set<RunEventType>(['model.delta', 'cell.output']);

type LiveOnlyEventType = 'model.delta' | 'cell.output';

/** An event as stored in a file. */
export type PersistedEventRecord = Exclude<EventRecord, { type: LiveOnlyEventType }>;

export function isLiveOnly(record: EventRecord): record is Extract<EventRecord, { type: LiveOnlyEventType }> {
  return LIVE_ONLY_EVENT_TYPES.has(record.type);
}

/** The formats a reader can open, recognised from the first line's content (not the file name). */
export type TrajectoryFormatKind = 'rlm-trajectory' | 'rlm-python-jsonl';

type FormatDetection =
  | { kind: 'rlm-trajectory'; version: number; header: Record<string, unknown> }
  | { kind: 'rlm-python-jsonl'; first: Record<string, unknown> }
  | { kind: 'unknown'; reason: string };

/** Recognises a trajectory from its first line alone. */
export function detectTrajectoryFormat(firstLine: string): FormatDetection {
  const text = firstLine.replace(/^\uFEFF/, '').trim();
  if (!text.startsWith('{')) return { kind: 'unknown', reason: 'the first line is not a JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unknown', reason: 'the first line is not valid JSON' };
  }
  if (!isPlainObject(value)) return { kind: 'unknown', reason: 'the first line is not a JSON object' };
  if (value.format === TRAJECTORY_FORMAT) {
    const version = value.version;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
      return { kind: 'unknown', reason: `the header has format "${TRAJECTORY_FORMAT}" but no valid version` };
    }
    return { kind: 'rlm-trajectory', version, header: value };
  }
  // The Python reference writes a metadata line first; files cut before it start with iterations.
  if (value.type === 'metadata' || value.type === 'iteration' || value.type === 'run_context') {
    return { kind: 'rlm-python-jsonl', first: value };
  }
  return { kind: 'unknown', reason: 'the first line is neither an rlm-trajectory header nor an rlm (Python) log entry' };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
