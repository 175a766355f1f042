// How the REPL child process is started: the Node flags that harden it, and which of them the running
// Node supports. Kept apart from the session logic so the flag choice can be tested on its own.
import { join } from 'node:path';

export interface LaunchPlan {
  execArgv: string[];
  env: Record<string, string>;
  /** Which permission flag is used, if any. */
  permissionFlag?: '--permission' | '--experimental-permission';
  notes: string[];
}

export interface LaunchInputs {
  distDir: string;
  /** Extra files the child may read (e.g. the snapshot cache). */
  extraReadPaths: string[];
  /** false drops the permission model (used after a start failed because of it). */
  usePermissionModel: boolean;
  nodeFlags: ReadonlySet<string>;
  isElectron: boolean;
}

export function defaultLaunchInputs(distDir: string, extraReadPaths: string[]): LaunchInputs {
  return {
    distDir,
    extraReadPaths,
    usePermissionModel: true,
    nodeFlags: process.allowedNodeEnvironmentFlags,
    isElectron: typeof process.versions.electron === 'string',
  };
}

export function planLaunch(inputs: LaunchInputs): LaunchPlan {
  const notes: string[] = [];
  const execArgv = ['--disallow-code-generation-from-strings'];
  // Electron's binary starts a GUI app unless told to act as Node; that variable carries no secret.
  const env: Record<string, string> = inputs.isElectron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  let permissionFlag: LaunchPlan['permissionFlag'];
  if (inputs.nodeFlags.has('--permission')) permissionFlag = '--permission';
  else if (inputs.nodeFlags.has('--experimental-permission')) permissionFlag = '--experimental-permission';
  if (!inputs.usePermissionModel) {
    notes.push('the Node permission model was turned off because the child failed to start with it');
  } else if (!permissionFlag) {
    notes.push(`this Node (${process.version}) has no permission model: file system and child-process access are not blocked at the Node level`);
  } else {
    const readable = [
      join(inputs.distDir, 'replProcess.js'),
      join(inputs.distDir, 'replWorker.js'),
      join(inputs.distDir, 'pyodide', '*'),
      ...inputs.extraReadPaths,
    ];
    // One flag per path: this Node 20 reads a comma inside the value as part of the path.
    execArgv.push(permissionFlag, ...readable.map((p) => `--allow-fs-read=${p}`), '--allow-worker');
    if (inputs.nodeFlags.has('--disable-warning')) execArgv.push('--disable-warning=ExperimentalWarning');
  }
  return { execArgv, env, permissionFlag: inputs.usePermissionModel ? permissionFlag : undefined, notes };
}

/** True when the child's stderr shows Node refused one of our flags. */
export function isFlagRejection(stderr: string): boolean {
  return /bad option|is not allowed in NODE_OPTIONS|unknown option|ERR_ACCESS_DENIED/i.test(stderr);
}
