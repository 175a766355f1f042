// The `@rlm` chat participant: a question in VS Code's Chat view runs the whole RLM loop (cells,
// sub-calls, trajectory) about the workspace, `/file`, `/folder <path>` or the chat's references,
// streams its progress, and answers in Markdown with file anchors and a button to the trajectory.
// Follow-ups in one chat thread continue its conversation and REPL; the chat's Stop stops the run.
import * as vscode from 'vscode';
import { UntrustedWorkspaceError } from '../errors/extensionErrors';
import { describeError, describeRunError } from '../errors/describeError';
import { LanguageModelClient } from '../models/languageModelClient';
import { wrapChatModel } from '../models/vscodeLmSurface';
import type { RlmServices } from '../services/rlmServices';
import type { ActiveRun } from '../run/activeRun';
import { Conversation } from '../run/conversation';
import type { GatheredContext } from '../run/runLauncher';
import { whenFree } from '../run/busyTarget';
import { readSettings } from '../settings/readSettings';
import { mentionLocation, referenceLocation } from '../trajectory/referenceOpener';
import type { Reference } from '../../core/trajectory/events';
import { NEXT_STEP_LABELS } from '../../shared/nextStep';
import type { UserMessage } from '../errors/describeError';
import { stepCommand } from '../errors/userMessages';
import { footerMarkdown, stoppedMarkdown } from './chatEnding';
import { citationKey, contextPaths, mentionReference, splitAnswer } from './answerAnchors';
import type { AnswerPart } from './answerAnchors';
import { parsePdfPageKey } from '../../core/context/pdfPages';
import { referenceLabel as labelOfReference } from '../../shared/text/referenceLabel';
import { activeFileUri } from '../context/activeTarget';
import { chatContextFor, referenceLabel, uriForContextPath } from './chatContext';
import { ChatProgressLines } from './chatProgress';
import { answerMarkdown, errorMarkdown, partialFindingsMarkdown, progressText } from './chatMarkdown';
import { isImplicitReference, planChatRequest } from './chatRequestPlan';
import { ChatThreads, threadKeyFromHistory } from './chatThreads';

const CHAT_PARTICIPANT_ID = 'rlm.participant';
/** Opens a run's live view while it runs, else its recorded file (the answer's button). */
const SHOW_RUN_COMMAND = 'rlm.showChatRun';

/** What an answer records in its ChatResult, read back by follow-ups and tests. */
interface RlmChatMetadata {
  rlmThread: string;
  runId?: string;
  trajectoryPath?: string;
  status?: string;
}

export function registerChatParticipant(services: RlmServices): vscode.Disposable[] {
  // Hosts without the chat API (older or trimmed builds) keep the commands and the sidebar.
  if (typeof vscode.chat?.createChatParticipant !== 'function') return [];
  const threads = new ChatThreads(
    () =>
      new Conversation({
        repl: () => services.replPool(),
        createBridgeRouter: async () => (await services.engine()).createBridgeRouter(),
      }),
  );
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, context, stream, token) => handleChatRequest(services, threads, request, context, stream, token));
  participant.iconPath = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'icon.png');
  const showRun = vscode.commands.registerCommand(SHOW_RUN_COMMAND, async (runId: unknown, path: unknown) => {
    const live = services.registry.active().find((r) => r.runId === runId);
    if (live && services.views) services.views.openLive(live);
    else if (typeof path === 'string') await services.openTrajectory(path);
  });
  return [participant, showRun, { dispose: () => void threads.dispose() }];
}

async function handleChatRequest(
  services: RlmServices,
  threads: ChatThreads,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const thread = threads.open(threadKeyFromHistory(context.history as ReadonlyArray<{ result?: { metadata?: unknown } }>));
  const metadata: RlmChatMetadata = { rlmThread: thread.key };
  const controller = new AbortController();
  const onCancel = token.onCancellationRequested(() => controller.abort(new Error('Stopped in the chat')));
  let run: ActiveRun | undefined;
  try {
    if (!vscode.workspace.isTrusted) throw new UntrustedWorkspaceError();
    // The chat attaches the visible editor on its own ("Current file"); that is not the user pointing at
    // it, so "@rlm question" stays about the workspace and /file is how to ask about the editor.
    const references = request.references.filter((r) => !isImplicitReference(r.id));
    const implicitFile = request.references.map((r) => (isImplicitReference(r.id) ? implicitUri(r.value) : undefined)).find((u) => u !== undefined);
    const plan = planChatRequest({
      command: request.command,
      prompt: request.prompt,
      references: references.map((r) => ({ ...(r.range ? { range: r.range } : {}), label: referenceLabel(r) })),
    });
    if (plan.kind === 'usage') {
      stream.markdown(plan.message);
      return { metadata };
    }
    const settings = readSettings();
    const target = await chatContextFor(plan, references, settings, implicitFile);
    services.prewarmRepl();
    // A question on a target that is still running waits its turn (as "Ask when it ends" does in the
    // sidebar); the chat's Stop gives up waiting.
    while (services.registry.isBusy(target.contextKey)) {
      const running = services.registry.get(target.contextKey)?.question ?? 'another question';
      stream.progress(`Waiting for "${shorten(running)}" to end on ${target.label}; this question starts after it.`);
      if (!(await whenFree(services.registry, target.contextKey, controller.signal))) throw controller.signal.reason;
    }
    stream.progress(`Reading ${target.label}…`);
    let gathered: GatheredContext | undefined;
    const chatModel = request.model as vscode.LanguageModelChat | undefined;
    run = await services.launcher.start({
      contextKey: target.contextKey,
      question: target.question ?? plan.question,
      settings,
      conversation: thread.conversation,
      conversationId: thread.key,
      signal: controller.signal,
      gather: async (signal) => (gathered = await target.gather(signal)),
      ...(chatModel
        ? { fallbackRoot: (gate) => new LanguageModelClient({ chat: wrapChatModel(chatModel), createCancellation: () => services.lm.createCancellation(), gate }) }
        : {}),
    });
    if (!run) {
      if (controller.signal.aborted) throw controller.signal.reason;
      stream.markdown('Nothing was asked: the context was not confirmed.');
      return { metadata };
    }
    metadata.runId = run.runId;
    if (run.trajectoryPath) metadata.trajectoryPath = run.trajectoryPath;
    services.log.info(`Chat run ${run.runId} started: ${plan.question}`);
    const result = await follow(run, stream);
    metadata.status = result.status;
    services.log.info(`Chat run ${run.runId} ended: ${result.status}`);
    if (result.status === 'cancelled' && result.answer === undefined) {
      // A stop is the user's, from the chat or anywhere else (the status bar, the view): said as a stop.
      stoppedEnding(stream, run, result.partial);
      return { metadata };
    }
    if (run.error !== undefined) throw run.error;
    if (result.answer !== undefined) {
      if (result.status === 'forced' || result.status === 'limit') stream.markdown('_The run reached a limit; this is its best answer so far._\n\n');
      const cited = await citedLocations(run, gathered);
      const parts = splitAnswer(result.answer, contextPaths(gathered).known);
      streamAnswer(stream, parts, gathered, cited, await anchoredLocations(parts, gathered, cited));
      // The answer's resolved path:line citations, also listed as the response's references.
      for (const location of new Set(cited.values())) stream.reference(location);
    } else if (result.error) {
      failureEnding(stream, describeRunError(result.error), run);
      if (result.partial) stream.markdown(partialFindingsMarkdown(result.partial));
      return { metadata };
    }
    stream.markdown(footerMarkdown(run.turnsCompleted, run.progress, rootModelOf(run)));
    stream.button({ command: SHOW_RUN_COMMAND, title: 'Open trajectory', arguments: [run.runId, run.trajectoryPath] });
    return { metadata };
  } catch (error) {
    if (controller.signal.aborted) {
      stoppedEnding(stream, run, undefined);
      return { metadata };
    }
    services.log.error(`@rlm: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    // The sentence once, in the response, with its buttons: an errorDetails as well would print it twice.
    failureEnding(stream, describeError(error), run);
    return { metadata };
  } finally {
    onCancel.dispose();
  }
}

/** A stop, with what the run had done and its trajectory (none when nothing was sent). */
function stoppedEnding(stream: vscode.ChatResponseStream, run: ActiveRun | undefined, partial: string | undefined): void {
  stream.markdown(stoppedMarkdown(run?.turnsCompleted ?? 0, run ? run.progress : undefined));
  if (partial) stream.markdown(partialFindingsMarkdown(partial));
  if (run) stream.button({ command: SHOW_RUN_COMMAND, title: 'Open trajectory', arguments: [run.runId, run.trajectoryPath] });
}

/** A failure's sentence with the button for each next step it names, then the trajectory when there is one. */
function failureEnding(stream: vscode.ChatResponseStream, message: UserMessage, run: ActiveRun | undefined): void {
  stream.markdown(errorMarkdown(message.text));
  for (const step of message.steps) stream.button({ ...stepCommand(step, message.keySlot), title: NEXT_STEP_LABELS[step] });
  if (run) stream.button({ command: SHOW_RUN_COMMAND, title: 'Open trajectory', arguments: [run.runId, run.trajectoryPath] });
}

/** The file of an implicit reference ("Current file" the chat attached): a URI or a location in it. */
function implicitUri(value: unknown): vscode.Uri | undefined {
  if (value instanceof vscode.Uri) return value;
  if (value instanceof vscode.Location) return value.uri;
  return undefined;
}

/** The root model as the run recorded it ("copilot-gpt-4o"), for the answer's footer. */
function rootModelOf(run: ActiveRun): string {
  for (const record of run.records()) if (record.type === 'run.started' && record.runId === run.runId) return record.config.root.model;
  return 'model unknown';
}

/** Streams progress lines while the run works; resolves with its result. */
async function follow(run: ActiveRun, stream: vscode.ChatResponseStream): Promise<Awaited<ActiveRun['result']>> {
  const lines = new ChatProgressLines();
  const show = (): void => {
    const line = lines.next(run.progress, Date.now());
    if (line) stream.progress(progressText(line));
  };
  show();
  const unsubscribe = run.subscribe(show);
  try {
    // The answer as soon as its citations are resolved; the coverage strip is recorded after it.
    return await run.answered;
  } finally {
    unsubscribe();
  }
}

function shorten(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Where each citation the loop resolved (the run's `references` event) opens: the file at the lines,
 * or a slice of a file too large for the editor. Keyed by path and lines, as the answer's mentions are.
 */
async function citedLocations(run: ActiveRun, gathered: GatheredContext | undefined): Promise<Map<string, vscode.Location>> {
  const out = new Map<string, vscode.Location>();
  let references: Reference[] = [];
  for (const record of run.records()) if (record.type === 'references' && record.runId === run.runId) references = record.references;
  const { single } = contextPaths(gathered);
  const singleUri = single && gathered ? activeOrOnly(gathered) : undefined;
  for (const reference of references) {
    // A PDF's page is cited by its page key (`design.pdf#page=2`): the file is the PDF.
    const uri = singleUri ?? uriForContextPath(parsePdfPageKey(reference.path)?.file ?? reference.path);
    if (!uri || uri.scheme !== 'file') continue;
    const location = await referenceLocation(reference, run.trajectoryPath, uri.fsPath);
    if (!location) continue;
    out.set(citationKey(single, reference.path, reference.line, reference.endLine), location);
    // Also by how the answer writes it in the input's terms (`analysis.ipynb#cell=3:2`, `design.pdf#page=18:3`).
    out.set(anchorKey(reference), location);
  }
  return out;
}

/** The key of a citation written in its input's terms: its label, as every view shows it. */
function anchorKey(reference: Pick<Reference, 'path' | 'line' | 'endLine' | 'notebookCell'>): string {
  return `anchor:${labelOfReference(reference)}`;
}

/**
 * Where each mention of a notebook cell or a PDF page in the answer opens: the loop's citation of the
 * same cell or page when it resolved one, else the cell or page itself. The mention is the model's text
 * (hostile): a file outside the workspace, one not found, or a notebook without that cell gets none, and
 * the mention stays plain text.
 */
async function anchoredLocations(parts: readonly AnswerPart[], gathered: GatheredContext | undefined, cited: ReadonlyMap<string, vscode.Location>): Promise<Map<AnswerPart, vscode.Location>> {
  const out = new Map<AnswerPart, vscode.Location>();
  const { single } = contextPaths(gathered);
  const singleFile = single && gathered ? activeOrOnly(gathered) : undefined;
  for (const part of parts) {
    if (part.kind !== 'file' || !part.anchor) continue;
    const reference = mentionReference(part.path, part.anchor);
    const location = cited.get(anchorKey(reference)) ?? (await mentionLocation(reference, singleFile?.scheme === 'file' ? singleFile.fsPath : undefined));
    if (location) out.set(part, location);
  }
  return out;
}

function streamAnswer(stream: vscode.ChatResponseStream, parts: readonly AnswerPart[], gathered: GatheredContext | undefined, cited: ReadonlyMap<string, vscode.Location>, anchored: ReadonlyMap<AnswerPart, vscode.Location>): void {
  const { single } = contextPaths(gathered);
  const singleFile = single && gathered ? activeOrOnly(gathered) : undefined;
  for (const part of parts) {
    if (part.kind === 'markdown') {
      stream.markdown(answerMarkdown(part.text));
      continue;
    }
    if (part.anchor) {
      const location = anchored.get(part);
      if (location) stream.anchor(location, part.text);
      else stream.markdown(answerMarkdown(part.text));
      continue;
    }
    const resolved = part.line !== undefined ? cited.get(citationKey(single, part.path, part.line, part.endLine)) : undefined;
    if (resolved) {
      stream.anchor(resolved, part.text);
      continue;
    }
    const uri = singleFile ?? uriForContextPath(part.path);
    if (!uri) {
      stream.markdown(answerMarkdown(part.text));
      continue;
    }
    if (part.line === undefined) stream.anchor(uri, part.text);
    else {
      const start = new vscode.Position(part.line - 1, 0);
      const end = new vscode.Position((part.endLine ?? part.line) - 1, 0);
      stream.anchor(new vscode.Location(uri, new vscode.Range(start, end)), part.text);
    }
  }
}

/** A single-file run: the file's URI, known from the active editor when it was /file. */
function activeOrOnly(gathered: GatheredContext): vscode.Uri | undefined {
  const path = gathered.target.paths[0];
  if (!path) return undefined;
  const active = activeFileUri();
  if (active && vscode.workspace.asRelativePath(active, false) === path.replace(/:\d+-\d+$/, '')) return active;
  return uriForContextPath(path);
}
