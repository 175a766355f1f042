// Continue… / Fork… / Replay and run, planned without `vscode` so the decisions are unit-tested with
// injected folders and prompts. A recorded file is hostile (a repository can ship one in .rlm/runs/):
// its input is re-read only when every path, symlinks resolved, lies inside an open workspace folder,
// and only after the user has seen those paths (and their size) in a modal and agreed. The models,
// endpoints, keys and limits are the user's settings; the record's are only shown.
import { planPaths } from '../../core/context/contextPlan';
import type { ContextPlan } from '../../core/context/contextTypes';
import { rebindRecordedInput, RecordedInputMissingError, RecordedInputOutsideError, RecordedInputUnnamedError } from '../../core/continuation/recordedInput';
import type { RecordedInputFs, ReboundInput } from '../../core/continuation/recordedInput';
import { describeCurrentModels, describeRecordedModels } from '../../core/continuation/recordedModels';
import { interruptedBatchTurn, recordedBatchesOf } from '../../core/loop/batchOptions';
import type { RecordedBatch } from '../../core/loop/batchOptions';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { formatBytes } from '../../shared/text/format';
import { TargetRefusedError } from '../errors/extensionErrors';
import type { RlmSettings } from '../settings/rlmSettings';

interface ContinuePlanDeps {
  /** The open workspace's folders on disk (file scheme), in order. */
  folders: readonly string[];
  /** Their names as VS Code shows them (aligned with `folders`): a workspace run records these as its paths. */
  folderNames?: readonly string[];
  /** A modal the user must accept; false when they dismiss it. */
  confirm(message: string, detail: string, accept: string): Promise<boolean>;
  fs?: RecordedInputFs;
  /** Planning of the confirmed paths; default planPaths (injectable so tests see what is read). */
  plan?: typeof planPaths;
}

const SHOWN_PATHS = 12;
/** What the CLI offers instead (`--context PATH`), said in VS Code's words. */
const EXPLICIT_INPUT = 'open the folder that holds it as a workspace folder, or continue from a terminal with rlm continue FILE --context PATH';

/**
 * Where the record's input lies in this workspace, or a refusal naming the path (TargetRefusedError,
 * one sentence). Only realpath and stat are used: nothing is read.
 */
export function locateRecordedInput(run: RunNode, deps: Pick<ContinuePlanDeps, 'folders' | 'folderNames' | 'fs'>): ReboundInput {
  if (!run.target?.paths.length || run.target.kind === 'text') {
    throw new TargetRefusedError('the recorded input', 'unreadable', 'This run\'s input was not a file or folder on disk (an unsaved buffer or a selection), so it cannot be read again.');
  }
  if (!deps.folders.length) throw new TargetRefusedError(run.target.paths.join(', '), 'no-workspace', `This run's input (${run.target.paths.join(', ')}) is read again only from an open workspace folder: ${EXPLICIT_INPUT}.`);
  try {
    return rebindRecordedInput(workspaceLabelsAsPaths(run, deps), deps.folders, deps.fs);
  } catch (error) {
    if (error instanceof RecordedInputOutsideError) {
      const where = error.why === 'climbs' ? 'climbs out of the workspace with ..' : error.why === 'malformed' ? 'is not a usable path' : `lies outside the workspace folders${error.real && error.real !== error.path ? ` (it leads to ${error.real})` : ''}`;
      throw new TargetRefusedError(error.path, 'outside-workspace', `This run's recorded input ${error.path} ${where}, so it is not read: ${EXPLICIT_INPUT}.`);
    }
    if (error instanceof RecordedInputMissingError) throw new TargetRefusedError(error.paths.join(', '), 'unreadable', `This run's input (${error.paths.join(', ')}) is not in this workspace, so it cannot be read again: ${EXPLICIT_INPUT}.`);
    if (error instanceof RecordedInputUnnamedError) throw new TargetRefusedError('the recorded input', 'unreadable', `This run does not name its input as files or folders on disk: ${EXPLICIT_INPUT}.`);
    throw error;
  }
}

/**
 * A run over the whole workspace records its folder's name ("myproject"), and in a multi-root workspace
 * every folder run records "name/sub/path": those labels name a workspace folder, not a path under it.
 * They become that folder's path (the containment check that follows still applies to it); any other
 * path is left as recorded.
 */
function workspaceLabelsAsPaths(run: RunNode, deps: Pick<ContinuePlanDeps, 'folders' | 'folderNames'>): string[] {
  const paths = run.target?.paths ?? [];
  const names = deps.folderNames ?? [];
  const labelled = run.target?.kind === 'workspace' || (run.target?.kind === 'folder' && deps.folders.length > 1);
  if (!labelled || names.length !== deps.folders.length) return paths;
  return paths.map((p) => {
    for (const [i, name] of names.entries()) {
      const folder = deps.folders[i];
      if (folder === undefined) continue;
      if (run.target?.kind === 'workspace' && p === name) return folder;
      if (p.startsWith(`${name}/`)) {
        const rest = p.slice(name.length + 1);
        return rest === '' ? folder : `${folder}/${rest}`;
      }
    }
    return p;
  });
}

/** The modal's text: what will be read, and whose models go on. */
function confirmationText(run: RunNode, input: ReboundInput, settings: Pick<RlmSettings, 'root' | 'sub'>, action: string): { message: string; detail: string } {
  const { entries } = input;
  const files = entries.filter((e) => e.bytes !== undefined);
  const bytes = files.reduce((n, e) => n + (e.bytes ?? 0), 0);
  const folders = entries.filter((e) => e.kind === 'folder').length;
  const size = files.length ? `${formatBytes(bytes)} in ${files.length} file${files.length === 1 ? '' : 's'}${folders ? ` and ${folders} folder${folders === 1 ? '' : 's'} (not measured before you agree)` : ''}` : `${folders} folder${folders === 1 ? '' : 's'} (not measured before you agree)`;
  const listed = entries.slice(0, SHOWN_PATHS).map((e) => `  ${e.path}${e.kind === 'folder' ? '/' : ''}${e.bytes !== undefined ? ` (${formatBytes(e.bytes)})` : ''}`);
  if (entries.length > SHOWN_PATHS) listed.push(`  … and ${entries.length - SHOWN_PATHS} more`);
  const current = describeCurrentModels(settings.root, settings.sub ?? settings.root);
  const recorded = describeRecordedModels(run.config);
  const cells = run.turns.reduce((n, t) => n + t.cells.length, 0);
  return {
    message: `${action}: read ${entries.length === 1 ? 'this path' : `these ${entries.length} paths`} again from ${input.folder}?`,
    detail: [
      ...listed,
      '',
      `Total: ${size}.`,
      `The recorded cells (up to ${cells}) are replayed in the sandbox; their sub-calls are answered from the record.`,
      `Models from your settings (${current})${recorded ? `, not the record's (${recorded})` : ''}.`,
    ].join('\n'),
  };
}

/**
 * The input of a continued run, once the user agreed: a gather that plans only the confirmed paths,
 * relative to the folder's real path, under the user's size limits. Undefined when they declined.
 */
export async function confirmRecordedInput(run: RunNode, settings: Pick<RlmSettings, 'root' | 'sub' | 'maxFileBytes' | 'contextLimitBytes' | 'workspaceLimitBytes'>, words: { action: string; accept: string }, deps: ContinuePlanDeps): Promise<(() => Promise<ContextPlan>) | undefined> {
  // Checked again here, just before the paths are shown: the disk may have changed since the command began.
  const input = locateRecordedInput(run, deps);
  const { message, detail } = confirmationText(run, input, settings, words.action);
  if (!(await deps.confirm(message, detail, words.accept))) return undefined;
  const plan = deps.plan ?? planPaths;
  const paths = input.entries.map((e) => e.path);
  return async () => {
    // Checked once more as the run reads: what was confirmed must still be where it was (a path
    // swapped for a link leading out meanwhile is refused, not followed).
    const now = locateRecordedInput(run, deps);
    const same = now.folder === input.folder && now.entries.length === input.entries.length && now.entries.every((e, i) => e.real === input.entries[i]!.real);
    if (!same) throw new TargetRefusedError(run.target!.paths.join(', '), 'unreadable', 'This run\'s input changed on disk after you confirmed it, so it was not read: run the command again to see what it is now.');
    return plan(paths, { cwd: input.folder, maxFileBytes: settings.maxFileBytes, maxTotalBytes: settings.contextLimitBytes, maxListedBytes: settings.workspaceLimitBytes });
  };
}

type ContinueMode = 'continue' | 'fork' | 'session';

/** How Continue… / Fork… start from a record, given its provider batches (docs/batch.md). */
interface BatchContinuation {
  /** The turn to fork at, when the record was interrupted while it waited for a provider batch (as `rlm continue` with no question). */
  takeUpAt?: number;
  /** The record's batches, offered to the run: each is polled only on the provider, endpoint and model configured now, for prompts it holds. */
  recorded: RecordedBatch[];
}

/**
 * A run that never finished can be continued only when it stopped while waiting for a provider batch:
 * Continue… then takes it up at that turn with its own question, and its batch is read from the
 * provider rather than sent (and billed) again. Any other unfinished run is refused, as before.
 * Continue and Fork pass every recorded batch on (a batch answers only prompts whose hash it lists);
 * a replay for the user's cells sends nothing new, so it gets none.
 */
export function batchContinuation(run: RunNode, mode: ContinueMode, fromTurn: number | undefined): BatchContinuation {
  const unfinished = run.status === 'running' || run.status === 'incomplete';
  const waiting = unfinished ? interruptedBatchTurn(run) : undefined;
  if (unfinished && waiting === undefined && (mode !== 'session' || run.turns.length === 0)) {
    throw new RunUnfinishedError();
  }
  if (mode === 'session') return { recorded: [] };
  return { ...(mode === 'continue' && waiting !== undefined && fromTurn === undefined ? { takeUpAt: waiting } : {}), recorded: recordedBatchesOf(run) };
}

/** The record holds a run that has not ended (and was not waiting for a provider batch). */
export class RunUnfinishedError extends Error {
  constructor() {
    super('holds a run that has not finished: continue it once it has ended.');
    this.name = 'RunUnfinishedError';
  }
}
