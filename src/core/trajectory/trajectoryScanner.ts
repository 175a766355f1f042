// Walks a trajectory file line by line, recognises its format from the content, and hands every usable
// record to a sink. Both the tree reader and the flat-memory summary are built on this, so they agree
// on what a file contains and on every problem found in it.
import { open } from 'node:fs/promises';
import { checkEvent } from './eventValidation';
import { sanitizeHeader } from './recordSchema';
import { readLines } from './lineReader';
import { ReferenceImporter } from './referenceImport';
import type { ImportedHeader } from './referenceImport';
import { TRAJECTORY_VERSION, detectTrajectoryFormat, isPlainObject } from './trajectoryFormat';
import type { TrajectoryFormatKind, TrajectoryHeader } from './trajectoryFormat';
import type { BuildableRecord } from './treeBuilder';
import type { ReadProblem } from './treeTypes';

export class NotATrajectoryError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} is not an RLM trajectory: ${reason}. Expected a .rlm.jsonl file written by RLM, or a JSONL log of the Python rlm package.`);
    this.name = 'NotATrajectoryError';
  }
}

export class TrajectoryReadError extends Error {
  constructor(
    readonly path: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'TrajectoryReadError';
  }
}

export interface UnknownEvent {
  line: number;
  record: Record<string, unknown>;
}

interface ScanSink {
  onHeader(header: TrajectoryHeader | ImportedHeader, format: TrajectoryFormatKind): void;
  onRecord(record: BuildableRecord, line: number): void;
  onUnknown(event: UnknownEvent): void;
  onProblem(problem: ReadProblem): void;
}

/** Bytes looked at before streaming, to refuse binaries and other non-JSON files at once. */
const SNIFF_BYTES = 4096;

export async function scanTrajectory(path: string, sink: ScanSink): Promise<TrajectoryFormatKind> {
  await sniff(path);
  let format: TrajectoryFormatKind | undefined;
  let importer: ReferenceImporter | undefined;
  let lastSeq = -Infinity;
  const lines = readLines(path);
  try {
    for await (const line of lines) {
      if (line.text.trim() === '') continue;
      if (format === undefined) {
        const detected = detectTrajectoryFormat(line.text);
        if (detected.kind === 'unknown') {
          const reason = line.terminated ? detected.reason : 'the file ends inside its first line';
          throw new NotATrajectoryError(path, reason);
        }
        format = detected.kind;
        if (detected.kind === 'rlm-trajectory') {
          if (detected.version > TRAJECTORY_VERSION) {
            sink.onProblem({ line: line.number, kind: 'newer-version', message: `written by format version ${detected.version}; this reader knows version ${TRAJECTORY_VERSION} and shows what it understands` });
          }
          const { header, problems } = sanitizeHeader(detected.header);
          for (const problem of problems) sink.onProblem({ line: line.number, kind: 'invalid-record', message: `${problem}; that field is ignored` });
          sink.onHeader(header as unknown as TrajectoryHeader, format);
          continue;
        }
        importer = new ReferenceImporter(
          (record, at) => sink.onRecord(record, at),
          (message, at) => sink.onProblem({ line: at, kind: 'invalid-record', message }),
        );
        // The importer fills its header in as metadata and run_context lines arrive.
        sink.onHeader(importer.header, format);
      }
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        sink.onProblem(
          line.terminated
            ? { line: line.number, kind: 'invalid-json', message: 'the line is not valid JSON; skipped' }
            : { line: line.number, kind: 'truncated-line', message: 'the last line is incomplete (the file was cut while writing); skipped' },
        );
        continue;
      }
      if (importer) {
        if (!isPlainObject(value)) {
          sink.onProblem({ line: line.number, kind: 'invalid-record', message: 'the line is not a JSON object; skipped' });
        } else if (importer.accept(value, line.number) === 'unknown') {
          sink.onUnknown({ line: line.number, record: value });
          sink.onProblem({ line: line.number, kind: 'unknown-event', message: `unknown entry type ${JSON.stringify(value.type)}; kept, not shown` });
        }
        continue;
      }
      const check = checkEvent(value);
      if (!check.ok) {
        if ('unknownType' in check) {
          sink.onUnknown({ line: line.number, record: value as Record<string, unknown> });
          sink.onProblem({ line: line.number, kind: 'unknown-event', message: `unknown event type "${check.unknownType}" (from a newer version?); kept, not shown` });
        } else {
          sink.onProblem({ line: line.number, kind: 'invalid-record', message: `${check.invalid}; skipped` });
        }
        continue;
      }
      const record = value as BuildableRecord;
      if (record.seq <= lastSeq) {
        sink.onProblem({ line: line.number, kind: 'out-of-order', message: `seq ${record.seq} does not follow ${lastSeq}` });
      }
      lastSeq = Math.max(lastSeq, record.seq);
      sink.onRecord(record, line.number);
    }
    // A run still waiting for what its first code block tells about its REPL starts now.
    importer?.finish();
  } catch (error) {
    if (error instanceof NotATrajectoryError) throw error;
    throw asReadError(path, error);
  }
  if (format === undefined) throw new NotATrajectoryError(path, 'the file is empty');
  return format;
}

async function sniff(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw asReadError(path, error);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new TrajectoryReadError(path, 'EISDIR', `${path} is a folder, not a trajectory file`);
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.includes(0)) throw new NotATrajectoryError(path, 'it is a binary file');
    const first = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
    if (bytesRead === 0 || first === '') throw new NotATrajectoryError(path, 'the file is empty');
    if (!first.startsWith('{')) throw new NotATrajectoryError(path, 'it does not start with a JSON object');
  } finally {
    await handle.close();
  }
}

function asReadError(path: string, error: unknown): TrajectoryReadError {
  if (error instanceof TrajectoryReadError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const message =
    code === 'ENOENT' ? `${path} does not exist` : code === 'EACCES' ? `${path} cannot be read (permission denied)` : `cannot read ${path}: ${String(error)}`;
  return new TrajectoryReadError(path, code, message);
}
