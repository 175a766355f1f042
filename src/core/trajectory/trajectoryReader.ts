// Opens a trajectory file (ours or the Python reference's) into the run tree. Streams the file; the
// tree it returns holds the content, so for summaries of huge files use summarizeTrajectory instead.
import type { ImportedHeader } from './referenceImport';
import { scanTrajectory } from './trajectoryScanner';
import type { UnknownEvent } from './trajectoryScanner';
import type { TrajectoryFormatKind, TrajectoryHeader } from './trajectoryFormat';
import { TreeBuilder } from './treeBuilder';
import type { ReadProblem, RunNode } from './treeTypes';

export interface ReadTrajectoryOptions {
  /** Called with each problem as it is found (they are also returned). */
  onProblem?: (problem: ReadProblem) => void;
}

export interface TrajectoryReadResult {
  format: TrajectoryFormatKind;
  header: TrajectoryHeader | ImportedHeader | undefined;
  /** The root run (the first one); undefined when the file holds a header and no run. */
  tree: RunNode | undefined;
  /**
   * Every top-level run in order. One, or several when the file holds a conversation: a reference log
   * whose logger served several questions. Each later run is a follow-up, like our own follow-ups.
   */
  runs: RunNode[];
  problems: ReadProblem[];
  unknownEvents: UnknownEvent[];
  /** Records applied to the tree. */
  eventCount: number;
}

export async function readTrajectory(path: string, options: ReadTrajectoryOptions = {}): Promise<TrajectoryReadResult> {
  const builder = new TreeBuilder();
  const problems: ReadProblem[] = [];
  const unknownEvents: UnknownEvent[] = [];
  let header: TrajectoryHeader | ImportedHeader | undefined;
  let eventCount = 0;
  let lastLine = 0;
  const report = (problem: ReadProblem): void => {
    problems.push(problem);
    options.onProblem?.(problem);
  };
  const format = await scanTrajectory(path, {
    onHeader: (h) => (header = h),
    onRecord: (record, line) => {
      eventCount++;
      lastLine = line;
      const { problem } = builder.apply(record);
      if (problem) report({ line, ...problem });
    },
    onUnknown: (event) => unknownEvents.push(event),
    onProblem: report,
  });
  for (const runId of builder.markIncomplete()) {
    report({ line: lastLine, kind: 'missing-end', message: `run ${runId} has no run.finished: the file ends before the run did` });
  }
  return { format, header, tree: builder.tree, runs: [...builder.roots], problems, unknownEvents, eventCount };
}
