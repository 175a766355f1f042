// Records a run into `<directory>/<time>-<runId>.rlm.jsonl`. The file's header needs what the root's
// run.started carries, so the writer opens on that event; nothing before it exists to be lost.
import { join } from 'node:path';
import type { EventRecord } from '../../core/trajectory/events';
import { TRAJECTORY_EXTENSION } from '../../core/trajectory/trajectoryFormat';
import type { AskedBy } from '../../core/trajectory/trajectoryFormat';
import { headerFromRunStarted } from '../../core/trajectory/trajectoryHeader';
import { createRunsFolder } from '../../core/trajectory/runsFolder';
import { openTrajectoryWriter } from '../../core/trajectory/trajectoryWriter';
import type { TrajectoryWriter } from '../../core/trajectory/trajectoryWriter';
import type { TrajectorySink } from './activeRun';

interface TrajectorySinkOptions {
  directory: string;
  runId: string;
  toolVersion: string;
  /** API keys in use: scrubbed from every line. */
  secrets: Array<string | undefined>;
  /** The question, for a file name a person recognises. */
  question?: string;
  /** The chat conversation, recorded in the header so History groups follow-ups under it. */
  conversationId?: string;
  /** Set for a run an agent asked through the language model tool: recorded in the header, marked in History. */
  askedBy?: AskedBy;
  now: () => number;
  /** Told once when the file cannot be written; the run goes on (its events still reach the UI). */
  onError: (error: unknown) => void;
}

/** "2026-12-02T14-05-31": sortable, and valid on every file system. */
function fileTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/:/g, '-');
}

/** "which-functions-write-to-the-database": the question's first words, safe on every file system. */
function questionSlug(question: string, maxChars = 48): string {
  const words = question
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > maxChars) break;
    slug = next;
  }
  return slug || (words[0] ?? '').slice(0, maxChars);
}

/**
 * "2026-12-02T14-05-31-which-functions-write-a1b2c3d4.rlm.jsonl": sortable by time, readable in tabs,
 * file pickers and the explorer by its question, unique by a piece of the run id.
 */
export function trajectoryFileName(startedAtMs: number, runId: string, question = ''): string {
  const safeId = runId.replace(/[^A-Za-z0-9_-]/g, '_');
  const slug = questionSlug(question);
  const id = slug ? safeId.replace(/^run[-_]?/, '').slice(-8) : safeId.slice(0, 64);
  return `${fileTimestamp(startedAtMs)}-${slug ? `${slug}-` : ''}${id}${TRAJECTORY_EXTENSION}`;
}

export class FileTrajectorySink implements TrajectorySink {
  readonly path: string;
  private writer: TrajectoryWriter | undefined;
  private failed = false;
  private lastStatus: EventRecord | undefined;

  constructor(private readonly options: TrajectorySinkOptions) {
    this.path = join(options.directory, trajectoryFileName(options.now(), options.runId, options.question));
  }

  write(record: EventRecord): void {
    if (this.failed) return;
    try {
      if (!this.writer) {
        if (record.type !== 'run.started' || record.runId !== this.options.runId) return;
        createRunsFolder(this.options.directory);
        const header = { ...headerFromRunStarted(record, this.options.toolVersion), ...(this.options.conversationId ? { conversationId: this.options.conversationId } : {}), ...(this.options.askedBy ? { askedBy: this.options.askedBy } : {}) };
        this.writer = openTrajectoryWriter(this.path, header, {
          secrets: this.options.secrets,
          now: this.options.now,
        });
      }
      this.writer.write(record);
      if (record.type === 'run.finished' && record.runId === this.options.runId) this.lastStatus = record;
    } catch (error) {
      this.failed = true;
      this.writer?.abort(error instanceof Error ? error.message : String(error));
      this.options.onError(error);
    }
  }

  /** True once the file exists on disk. */
  get opened(): boolean {
    return this.writer !== undefined && !this.failed;
  }

  async close(): Promise<void> {
    if (!this.writer || this.writer.closed) return;
    // A run that ended without run.finished was stopped or crashed: the writer records it as cancelled.
    this.writer.close(this.lastStatus ? {} : { status: 'cancelled', error: { kind: 'cancelled', message: 'the run ended without finishing' } });
  }
}
