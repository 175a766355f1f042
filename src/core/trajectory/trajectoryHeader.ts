// Builds a file header from the root run's run.started, which carries everything the header needs.
// The CLI and the extension both record runs; this keeps their headers identical.
import type { EventOf } from './events';
import { TRAJECTORY_FORMAT } from './trajectoryFormat';
import type { TrajectoryHeader } from './trajectoryFormat';

export function headerFromRunStarted(record: EventOf<'run.started'> & { ts: number }, toolVersion: string): TrajectoryHeader {
  return {
    format: TRAJECTORY_FORMAT,
    version: 1,
    toolVersion,
    startedAt: new Date(record.ts).toISOString(),
    question: record.question,
    ...(record.target !== undefined && { target: record.target }),
    context: record.context,
    config: record.config,
    models: { root: record.config.root, sub: record.config.sub },
    protections: record.protections,
    runId: record.runId,
  };
}
