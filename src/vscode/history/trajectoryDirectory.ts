// Where runs are recorded: an explicit rlm.trajectoryDirectory, else .rlm/runs in the workspace when
// asked for, else the extension's storage for this workspace (global storage with no workspace).
import { isAbsolute, join, resolve } from 'node:path';

interface TrajectoryDirectoryInputs {
  setting: string;
  inWorkspace: boolean;
  /** File-system path of the first workspace folder, if any. */
  firstFolder?: string;
  /** context.storageUri's path: undefined when no workspace is open. */
  workspaceStorage?: string;
  globalStorage: string;
}

export class TrajectoryDirectoryError extends Error {
  constructor(readonly setting: string) {
    super(`rlm.trajectoryDirectory is the relative path "${setting}", but no folder is open to resolve it against. Use an absolute path or open a folder.`);
    this.name = 'TrajectoryDirectoryError';
  }
}

export function resolveTrajectoryDirectory(inputs: TrajectoryDirectoryInputs): string {
  const setting = inputs.setting.trim();
  if (setting !== '') {
    const expanded = setting.startsWith('~/') ? join(process.env.HOME ?? '', setting.slice(2)) : setting;
    if (isAbsolute(expanded)) return expanded;
    if (!inputs.firstFolder) throw new TrajectoryDirectoryError(setting);
    return resolve(inputs.firstFolder, expanded);
  }
  if (inputs.inWorkspace && inputs.firstFolder) return join(inputs.firstFolder, '.rlm', 'runs');
  return join(inputs.workspaceStorage ?? inputs.globalStorage, 'runs');
}
