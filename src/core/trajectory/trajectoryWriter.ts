// Appends a run's events to a .rlm.jsonl file as they happen. Each line goes to the OS with one
// synchronous write on an open descriptor before write() returns, so a killed process leaves only
// complete lines (the reader also tolerates a torn last line). Every line is scrubbed of secrets first.
import * as nodeFs from 'node:fs';
import type { EventRecord, RunError, RunStatus } from './events';
import { createRedactor } from './redaction';
import type { Redactor } from './redaction';
import { RunTallies } from './runTally';
import { isLiveOnly } from './trajectoryFormat';
import type { PersistedEventRecord, TrajectoryHeader } from './trajectoryFormat';

/** The few fs calls the writer needs, injectable for tests (e.g. a disk that fails). */
export interface WriterFs {
  openSync(path: string, flags: string): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
}

export interface TrajectoryWriterOptions {
  /** API keys and other values that must never reach the file (the configured keys of every model). */
  secrets?: Iterable<string | undefined>;
  /** Refuse to replace an existing file (default true): a trajectory is a record, not a cache. */
  exclusive?: boolean;
  /** fsync after every line: survives power loss, not just a killed process. Slower; default false. */
  fsyncEachLine?: boolean;
  fs?: WriterFs;
  now?: () => number;
}

export class TrajectoryWriteError extends Error {
  constructor(
    message: string,
    readonly path: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'TrajectoryWriteError';
  }
}

interface CloseOptions {
  /** Status for runs that have not finished when the file is closed (default 'cancelled'). */
  status?: Extract<RunStatus, 'cancelled' | 'error'>;
  error?: RunError;
}

export interface TrajectoryWriter {
  readonly path: string;
  readonly bytesWritten: number;
  readonly linesWritten: number;
  readonly closed: boolean;
  /** Appends one event (live-only events are dropped). Throws TrajectoryWriteError on I/O failure. */
  write(record: EventRecord): void;
  /** Ends every unfinished run with a run.finished of the given status, then closes the file. */
  close(options?: CloseOptions): void;
  /** Crash path: ends unfinished runs with status 'error' and the reason, then closes. Never throws. */
  abort(reason: string): void;
}

export function openTrajectoryWriter(path: string, header: TrajectoryHeader, options: TrajectoryWriterOptions = {}): TrajectoryWriter {
  const fs = options.fs ?? nodeFs;
  const now = options.now ?? Date.now;
  const redactor = createRedactor(options.secrets);
  let fd: number;
  try {
    fd = fs.openSync(path, options.exclusive === false ? 'w' : 'wx');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' ? 'the file already exists' : code === 'ENOENT' ? 'its folder does not exist' : String(error);
    throw new TrajectoryWriteError(`Cannot create trajectory file ${path}: ${why}`, path, error);
  }
  try {
    return new FileTrajectoryWriter(path, fd, fs, redactor, options.fsyncEachLine ?? false, now, header);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

class FileTrajectoryWriter implements TrajectoryWriter {
  bytesWritten = 0;
  linesWritten = 0;
  closed = false;
  private readonly tallies = new RunTallies();

  constructor(
    readonly path: string,
    private readonly fd: number,
    private readonly fs: WriterFs,
    private readonly redactor: Redactor,
    private readonly fsyncEachLine: boolean,
    private readonly now: () => number,
    header: TrajectoryHeader,
  ) {
    this.appendLine(header);
  }

  write(record: EventRecord): void {
    if (this.closed) throw new TrajectoryWriteError(`Cannot write ${record.type}: trajectory ${this.path} is closed`, this.path);
    if (isLiveOnly(record)) return;
    if (this.tallies.events > 0 && record.seq <= this.tallies.lastSeq) {
      throw new TrajectoryWriteError(`Event ${record.type} has seq ${record.seq}, not after ${this.tallies.lastSeq}: events must be written in order`, this.path);
    }
    this.appendLine(record);
    this.tallies.apply(record);
  }

  close(options: CloseOptions = {}): void {
    if (this.closed) return;
    try {
      this.endUnfinished(options.status ?? 'cancelled', options.error);
    } finally {
      this.closeFd();
    }
  }

  abort(reason: string): void {
    if (this.closed) return;
    try {
      this.endUnfinished('error', { kind: 'internal', message: reason });
    } catch {
      // The crash path must not throw over the original error; the reader tolerates a missing end.
    } finally {
      this.closeFd();
    }
  }

  private endUnfinished(status: 'cancelled' | 'error', error?: RunError): void {
    const ts = Math.max(this.now(), this.tallies.lastTs);
    for (const run of this.tallies.unfinished()) {
      const record: PersistedEventRecord = {
        type: 'run.finished',
        runId: run.runId,
        status,
        ...(run.answer !== undefined && { answer: run.answer }),
        forced: run.forced,
        ...(error !== undefined && { error }),
        totals: { ...run.totals, wallTimeMs: ts - run.startedAt },
        seq: this.tallies.lastSeq + 1,
        ts,
      };
      this.appendLine(record);
      this.tallies.apply(record);
    }
  }

  private appendLine(value: unknown): void {
    const line = `${JSON.stringify(this.redactor.scrubValue(value))}\n`;
    const bytes = Buffer.from(line, 'utf8');
    try {
      let offset = 0;
      // One write almost always takes the whole line; loop for the rare short write.
      while (offset < bytes.length) offset += this.fs.writeSync(this.fd, bytes, offset, bytes.length - offset);
      if (this.fsyncEachLine) this.fs.fsyncSync(this.fd);
    } catch (error) {
      throw new TrajectoryWriteError(`Cannot write to trajectory ${this.path}: ${String(error)}`, this.path, error);
    }
    this.bytesWritten += bytes.length;
    this.linesWritten++;
  }

  private closeFd(): void {
    this.closed = true;
    try {
      this.fs.closeSync(this.fd);
    } catch {
      // Closing a descriptor after a failed write can fail too; the lines already written stay valid.
    }
  }
}
