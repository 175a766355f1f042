// How the REPL child process is started: the Node flags that harden it (layer 2's permission model), and
// the operating-system wrapper that takes its network away (layer 3). Kept apart from the session logic
// so each choice can be tested on its own.
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

export interface LaunchPlan {
  /** The program to spawn and its arguments (Node itself, or a sandbox wrapper around it). */
  command: string;
  args: string[];
  execArgv: string[];
  env: Record<string, string>;
  /** Which permission flag is used, if any. */
  permissionFlag?: '--permission' | '--experimental-permission';
  /** Layer 3 as planned; the probes at start say whether it held. */
  os: OsIsolationPlan;
  notes: string[];
}

export type OsIsolationKind = 'linux-namespaces' | 'macos-sandbox' | 'none';

export interface OsIsolationPlan {
  kind: OsIsolationKind;
  /** Folders hidden behind an empty file system in the child (Unix sockets live there). */
  hidden: string[];
  notes: string[];
}

export interface LaunchInputs {
  distDir: string;
  /** false drops the permission model (used after a start failed because of it). */
  usePermissionModel: boolean;
  /** false starts without the OS wrapper (used after a start failed because of it). */
  useOsIsolation: boolean;
  nodeFlags: ReadonlySet<string>;
  isElectron: boolean;
  platform: NodeJS.Platform;
  execPath: string;
  /** Finds a program; default: the usual system folders. */
  which?: (program: string) => string | undefined;
  /** The user's runtime folder (XDG_RUNTIME_DIR), hidden too when it exists. */
  runtimeDir?: string;
}

export function defaultLaunchInputs(distDir: string, execPath = process.execPath): LaunchInputs {
  return {
    distDir,
    usePermissionModel: true,
    useOsIsolation: true,
    nodeFlags: process.allowedNodeEnvironmentFlags,
    isElectron: typeof process.versions.electron === 'string',
    platform: process.platform,
    execPath,
    runtimeDir: process.env.XDG_RUNTIME_DIR,
  };
}

const SYSTEM_BIN = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin'];

function systemWhich(program: string): string | undefined {
  return SYSTEM_BIN.map((dir) => join(dir, program)).find((path) => existsSync(path));
}

/** Where Unix sockets of other programs usually live: /tmp (X11, VS Code's IPC), /run (D-Bus, Docker). */
const SOCKET_FOLDERS = ['/tmp', '/var/tmp', '/run', '/var/run', '/dev/shm'];

const inside = (path: string, folder: string): boolean => {
  const p = resolve(path);
  return p === folder || p.startsWith(folder.endsWith(sep) ? folder : folder + sep);
};

/**
 * Linux: a new user, network and mount namespace (`unshare`, no privileges needed where the kernel
 * allows unprivileged user namespaces). The child sees only its own loopback, which is down, and an
 * empty tmpfs over each socket folder that holds none of the files it needs. A small POSIX shell does
 * the mounts inside the namespace and then execs Node. macOS: `sandbox-exec` with a profile that denies
 * network access. Elsewhere there is no OS layer, and the plan says so.
 */
export function planOsIsolation(inputs: LaunchInputs): OsIsolationPlan & { wrap?: (program: string, args: string[]) => { command: string; args: string[] } } {
  const which = inputs.which ?? systemWhich;
  if (!inputs.useOsIsolation) return { kind: 'none', hidden: [], notes: ['the operating-system sandbox was turned off because the REPL failed to start inside it'] };
  if (inputs.platform === 'linux') {
    const unshare = which('unshare');
    const shell = which('sh');
    const mount = which('mount');
    if (!unshare || !shell) return { kind: 'none', hidden: [], notes: ['`unshare` (util-linux) was not found, so the REPL process keeps the network'] };
    const needed = [inputs.distDir, inputs.execPath];
    const candidates = [...SOCKET_FOLDERS, ...(inputs.runtimeDir ? [inputs.runtimeDir] : [])];
    const hidden: string[] = [];
    const notes: string[] = [];
    for (const folder of candidates) {
      if (!existsSync(folder)) continue;
      const holder = needed.find((path) => inside(path, folder));
      if (holder) notes.push(`${folder} stays visible: the REPL needs ${holder}`);
      else hidden.push(folder);
    }
    if (!mount) notes.push('`mount` was not found, so socket folders stay visible');
    const mounts = mount ? hidden.map((folder) => `${mount} -t tmpfs -o size=64k,mode=0755 rlm-empty '${folder.replace(/'/g, `'\\''`)}' 2>/dev/null || true`).join('; ') : '';
    // The shell exports PWD and SHLVL; the REPL's environment must stay empty.
    const script = `${mounts}${mounts ? '; ' : ''}unset PWD OLDPWD SHLVL _; exec "$@"`;
    return {
      kind: 'linux-namespaces',
      hidden: mount ? hidden : [],
      notes,
      wrap: (program, args) => ({ command: unshare, args: ['--user', '--map-root-user', '--net', '--mount', '--', shell, '-c', script, 'rlm-repl', program, ...args] }),
    };
  }
  if (inputs.platform === 'darwin') {
    const sandboxExec = which('sandbox-exec');
    if (!sandboxExec) return { kind: 'none', hidden: [], notes: ['`sandbox-exec` was not found, so the REPL process keeps the network'] };
    const profile = '(version 1)(allow default)(deny network*)';
    return { kind: 'macos-sandbox', hidden: [], notes: [], wrap: (program, args) => ({ command: sandboxExec, args: ['-p', profile, program, ...args] }) };
  }
  return { kind: 'none', hidden: [], notes: [`this platform (${inputs.platform}) offers no sandbox the REPL can use without privileges, so the REPL process keeps the network; layers 1 and 2 still hold`] };
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
      join(inputs.distDir, 'esmGuardHooks.mjs'),
      join(inputs.distDir, 'pyodide', '*'),
    ];
    // One flag per path: this Node 20 reads a comma inside the value as part of the path.
    execArgv.push(permissionFlag, ...readable.map((p) => `--allow-fs-read=${p}`), '--allow-worker');
    // The experimental-feature and --allow-worker warnings say nothing a user can act on.
    if (inputs.nodeFlags.has('--disable-warning')) execArgv.push('--disable-warning=ExperimentalWarning', '--disable-warning=SecurityWarning');
  }
  const os = planOsIsolation(inputs);
  const nodeArgs = [...execArgv, join(inputs.distDir, 'replProcess.js')];
  const wrapped = os.wrap ? os.wrap(inputs.execPath, nodeArgs) : { command: inputs.execPath, args: nodeArgs };
  return {
    command: wrapped.command,
    args: wrapped.args,
    execArgv,
    env,
    permissionFlag: inputs.usePermissionModel ? permissionFlag : undefined,
    os: { kind: os.kind, hidden: os.hidden, notes: os.notes },
    notes,
  };
}

/** True when the child's stderr shows Node refused one of our flags. */
export function isFlagRejection(stderr: string): boolean {
  return /bad option|is not allowed in NODE_OPTIONS|unknown option|ERR_ACCESS_DENIED/i.test(stderr);
}

/** True when the OS wrapper itself failed (e.g. user namespaces are forbidden by the kernel or AppArmor). */
export function isOsIsolationRejection(stderr: string): boolean {
  return /unshare:|sandbox-exec:|sandbox_init|Operation not permitted|cannot open \/proc\/self\/(uid|gid)_map|write failed \/proc\/self/i.test(stderr);
}
