// Opens the CLI's trajectory file once the root run has started (the header needs its metadata).
import type { EventOf } from '../../core/trajectory/events';
import { TRAJECTORY_FORMAT, TRAJECTORY_VERSION } from '../../core/trajectory/trajectoryFormat';
import { openTrajectoryWriter } from '../../core/trajectory/trajectoryWriter';
import type { TrajectoryWriter } from '../../core/trajectory/trajectoryWriter';

export function openRunTrajectory(path: string, started: EventOf<'run.started'> & { ts: number }, toolVersion: string, secrets: string[]): TrajectoryWriter {
  return openTrajectoryWriter(
    path,
    {
      format: TRAJECTORY_FORMAT,
      version: TRAJECTORY_VERSION,
      toolVersion,
      startedAt: new Date(started.ts).toISOString(),
      question: started.question,
      ...(started.target ? { target: started.target } : {}),
      context: started.context,
      config: started.config,
      models: { root: started.config.root, sub: started.config.sub },
      protections: started.protections,
      runId: started.runId,
    },
    { secrets },
  );
}
