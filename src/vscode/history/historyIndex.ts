// Lists past runs from the trajectory directory without reading whole files: the header line gives
// the question and start, the file's tail gives the root run's end (status and answer).
// `promises` is read at call time: activation does not load node:fs/promises.
import { promises as fsp } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { firstPlainLine } from '../../shared/text/plainText';
import type { HistoryItem } from '../../shared/sidebarState';
import { TRAJECTORY_EXTENSION, detectTrajectoryFormat } from '../../core/trajectory/trajectoryFormat';

/** The newest this many files are listed. */
const MAX_HISTORY_FILES = 500;
const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 64 * 1024;
const PREVIEW_CHARS = 160;

async function readSlice(path: string, position: number, length: number): Promise<string> {
  const handle = await fsp.open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The mark of a run an agent asked (header `askedBy`); the client name is the file's text, kept short and plain. */
function askedByOf(value: unknown): Pick<HistoryItem, 'askedBy'> {
  if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== 'agent') return {};
  const { via, client } = value as { via?: unknown; client?: unknown };
  const name = typeof client === 'string' ? client.replace(/[^\w .@/-]/g, '').trim().slice(0, 40) : '';
  const surface = via === 'mcp' ? 'MCP' : via === 'vscode-tool' ? 'chat tool' : 'tool';
  return { askedBy: `an agent (${surface}${name ? `: ${name}` : ''})` };
}

/** Reads one trajectory's summary; undefined for files that are not rlm trajectories. */
export async function readHistoryItem(path: string): Promise<HistoryItem | undefined> {
  const info = await fsp.stat(path);
  const head = await readSlice(path, 0, Math.min(HEAD_BYTES, info.size));
  const firstLine = head.split('\n', 1)[0] ?? '';
  const detected = detectTrajectoryFormat(firstLine);
  if (detected.kind !== 'rlm-trajectory') return undefined;
  const header = detected.header;
  const runId = typeof header.runId === 'string' ? header.runId : basename(path, TRAJECTORY_EXTENSION);
  const startedAt = typeof header.startedAt === 'string' ? Date.parse(header.startedAt) : info.mtimeMs;
  const target = header.target as { paths?: unknown } | undefined;
  const paths = Array.isArray(target?.paths) ? target.paths.filter((p): p is string => typeof p === 'string') : [];
  const item: HistoryItem = {
    path,
    runId,
    question: typeof header.question === 'string' ? header.question : '(no question)',
    startedAt: Number.isFinite(startedAt) ? startedAt : info.mtimeMs,
    status: 'incomplete',
    ...(paths.length ? { targetLabel: paths.length === 1 ? paths[0] : `${paths[0]} and ${paths.length - 1} more` } : {}),
    ...(typeof header.conversationId === 'string' ? { conversationId: header.conversationId } : {}),
    ...askedByOf(header.askedBy),
  };
  const tailStart = Math.max(0, info.size - TAIL_BYTES);
  const tail = tailStart === 0 ? head : await readSlice(path, tailStart, info.size - tailStart);
  const lines = tail.split('\n').filter((l) => l.trim() !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    const record = parseJson(lines[i] ?? '');
    if (record?.type === 'run.finished' && record.runId === runId) {
      item.status = typeof record.status === 'string' ? record.status : 'incomplete';
      // A preview is one line of plain text: no `**` or fences from the model's Markdown.
      if (typeof record.answer === 'string') item.answerPreview = firstPlainLine(record.answer.slice(0, PREVIEW_CHARS * 4), PREVIEW_CHARS);
      break;
    }
  }
  return item;
}

/** Every trajectory in `directory`, newest first. A missing directory is an empty history. */
export async function listHistory(directory: string): Promise<HistoryItem[]> {
  let names: string[];
  try {
    names = await fsp.readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names.filter((n) => n.endsWith(TRAJECTORY_EXTENSION)).sort().reverse().slice(0, MAX_HISTORY_FILES);
  const items = await Promise.all(files.map((n) => readHistoryItem(join(directory, n)).catch(() => undefined)));
  return items.filter((i): i is HistoryItem => i !== undefined).sort((a, b) => b.startedAt - a.startedAt);
}

/** Deletes a history file, refusing anything outside `directory` (the path comes from the webview). */
export async function deleteHistoryFile(directory: string, path: string): Promise<void> {
  const dir = resolve(directory);
  const target = resolve(path);
  if (!target.startsWith(dir + sep) || !target.endsWith(TRAJECTORY_EXTENSION)) {
    throw new Error(`Refusing to delete ${path}: it is not a run in ${dir}.`);
  }
  await fsp.unlink(target);
}

/** True when `path` is a trajectory inside `directory` (for opening paths sent by the webview). */
export function isInsideDirectory(directory: string, path: string): boolean {
  return resolve(path).startsWith(resolve(directory) + sep);
}
