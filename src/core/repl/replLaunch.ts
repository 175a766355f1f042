// How the REPL child process is started: the Node flags that harden it (layer 2's permission model), and
// the operating-system wrapper that takes its network away (layer 3). Kept apart from the session logic
// so each choice can be tested on its own.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep, win32 } from 'node:path';
import { macosSandboxArgs } from './macosProfile';

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
  /** false drops the permission model (only once the user accepted a weaker sandbox, or in tests). */
  usePermissionModel: boolean;
  /** false starts without the OS wrapper (only once the user accepted a weaker sandbox, or for diagnosis). */
  useOsIsolation: boolean;
  nodeFlags: ReadonlySet<string>;
  isElectron: boolean;
  /** process.versions.electron in the host, for the record. */
  electronVersion?: string;
  platform: NodeJS.Platform;
  execPath: string;
  /** Finds a program; default: the usual system folders. */
  which?: (program: string) => string | undefined;
  /** The user's runtime folder (XDG_RUNTIME_DIR), hidden too when it exists. */
  runtimeDir?: string;
  /** The user's home folder, emptied too on Linux (keys, shell start-up files): depth under layer 2. */
  homeDir?: string;
}

export function defaultLaunchInputs(distDir: string, execPath = process.execPath): LaunchInputs {
  return {
    distDir,
    usePermissionModel: true,
    useOsIsolation: true,
    nodeFlags: process.allowedNodeEnvironmentFlags,
    isElectron: typeof process.versions.electron === 'string',
    ...(process.versions.electron ? { electronVersion: process.versions.electron } : {}),
    platform: process.platform,
    execPath,
    runtimeDir: process.env.XDG_RUNTIME_DIR,
    ...(homedir() ? { homeDir: homedir() } : {}),
  };
}

const SYSTEM_BIN = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin'];

function systemWhich(program: string): string | undefined {
  return SYSTEM_BIN.map((dir) => join(dir, program)).find((path) => existsSync(path));
}

/** Where Unix sockets of other programs usually live: /tmp (X11, VS Code's IPC), /run (D-Bus, Docker). */
const SOCKET_FOLDERS = ['/tmp', '/var/tmp', '/run', '/var/run', '/dev/shm'];

interface KeptPath {
  path: string;
  kind: 'dir' | 'file';
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

interface ShellTools {
  mount: string;
  umount: string;
  mkdir: string;
}

/**
 * The shell that runs inside the new namespaces before Node: an empty tmpfs over each plain socket
 * folder; for a folder that holds the REPL's own files, those files are first bound into a staging spot
 * inside the first emptied folder, the folder is emptied, and they are bound back at their own paths.
 * Nothing is staged unless that first tmpfs is really there (so nothing is written to a real folder),
 * and if binding back fails the folder is shown again rather than leaving a REPL that cannot start.
 * Programs are called by full path: the REPL's environment, and so this shell's, has no PATH.
 */
function isolationScript(tools: ShellTools | undefined, plain: string[], keeping: Array<{ folder: string; keep: KeptPath[] }>): string {
  const steps: string[] = [];
  if (tools) {
    const empty = (folder: string) => `${tools.mount} -t tmpfs -o size=64k,mode=0755 rlm-empty ${quote(folder)} 2>/dev/null`;
    const [staging] = plain;
    plain.forEach((folder, index) => steps.push(index === 0 && keeping.length ? `staged=0; ${empty(folder)} && staged=1` : `${empty(folder)} || true`));
    keeping.forEach(({ folder, keep }, f) => {
      const spot = (i: number) => quote(`${staging}/.rlm-keep-${f}-${i}`);
      const park = keep.map((k, i) => `${k.kind === 'dir' ? `${tools.mkdir} -p ${spot(i)}` : `: > ${spot(i)}`} && ${tools.mount} --bind ${quote(k.path)} ${spot(i)}`);
      const restore = keep.map((k, i) => {
        const make = k.kind === 'dir' ? `${tools.mkdir} -p ${quote(k.path)}` : `${tools.mkdir} -p ${quote(dirname(k.path))} && : > ${quote(k.path)}`;
        return `${make} && ${tools.mount} --bind ${spot(i)} ${quote(k.path)}`;
      });
      const unpark = keep.map((_, i) => `${tools.umount} ${spot(i)} 2>/dev/null`).join('; ');
      steps.push(
        `if [ "$staged" = 1 ] && { ${park.join(' && ')}; } 2>/dev/null && ${empty(folder)}; then { ${restore.join(' && ')}; } 2>/dev/null || ${tools.umount} -l ${quote(folder)}; ${unpark}; fi`,
      );
    });
  }
  // The shell exports PWD and SHLVL; the REPL's environment must stay empty.
  steps.push('unset PWD OLDPWD SHLVL _ staged; exec "$@"');
  return steps.join('; ');
}

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
  if (!inputs.useOsIsolation) return { kind: 'none', hidden: [], notes: ['the operating-system sandbox was turned off (it failed to start and a weaker sandbox was accepted, or it was turned off for diagnosis)'] };
  if (inputs.platform === 'linux') {
    const unshare = which('unshare');
    const shell = which('sh');
    const mount = which('mount');
    if (!unshare || !shell) return { kind: 'none', hidden: [], notes: ['`unshare` (util-linux) was not found, so the REPL process keeps the network'] };
    // What the REPL must still see: its bundle folder and the Node binary. When one lives under a socket
    // folder (a clone or an install under /tmp), that folder is still emptied, and only these paths are
    // bound back into the empty tmpfs, so nothing else in it (X11, VS Code or agent sockets) is reachable.
    // Electron needs the files beside its binary (resources, libraries); Node only itself.
    const needed: KeptPath[] = [
      { path: resolve(inputs.distDir), kind: 'dir' },
      inputs.isElectron ? { path: dirname(resolve(inputs.execPath)), kind: 'dir' } : { path: resolve(inputs.execPath), kind: 'file' },
    ];
    // The home folder holds keys and shell start-up files: emptied like the socket folders (only the
    // REPL's own files bound back), so a read or write there finds nothing even if layer 2 were bypassed.
    // Never `/` or the folder of all homes (a home that is unset or odd).
    const home = inputs.homeDir && !['/', '/home', '/Users'].includes(resolve(inputs.homeDir)) ? [resolve(inputs.homeDir)] : [];
    const candidates = [...SOCKET_FOLDERS, ...(inputs.runtimeDir ? [inputs.runtimeDir] : []), ...home].filter((folder) => existsSync(folder));
    const plain: string[] = [];
    const keeping: Array<{ folder: string; keep: KeptPath[] }> = [];
    const notes: string[] = [];
    for (const folder of candidates) {
      const keep = needed.filter((n) => inside(n.path, folder));
      if (keep.length === 0) plain.push(folder);
      else if (keep.some((n) => n.path === folder)) notes.push(`${folder} stays visible: the REPL needs all of it`);
      else keeping.push({ folder, keep });
    }
    // The REPL's own files are parked in the first emptied folder while the one they live in is emptied.
    const canKeep = plain.length > 0;
    const hidden = [...plain];
    for (const { folder, keep } of keeping) {
      if (canKeep) hidden.push(folder);
      else notes.push(`${folder} stays visible: the REPL needs ${keep.map((k) => k.path).join(' and ')}, and no other folder could hold them while it is emptied`);
    }
    const umount = which('umount');
    const mkdir = which('mkdir');
    const tools = mount && umount && mkdir ? { mount, umount, mkdir } : undefined;
    if (!tools) notes.push('`mount`, `umount` or `mkdir` was not found, so socket folders stay visible');
    const script = isolationScript(tools, tools ? plain : [], tools && canKeep ? keeping : []);
    return {
      kind: 'linux-namespaces',
      hidden: tools ? hidden : [],
      notes,
      wrap: (program, args) => ({ command: unshare, args: ['--user', '--map-root-user', '--net', '--mount', '--', shell, '-c', script, 'rlm-repl', program, ...args] }),
    };
  }
  if (inputs.platform === 'darwin') {
    const sandboxExec = which('sandbox-exec');
    if (!sandboxExec) return { kind: 'none', hidden: [], notes: ['`sandbox-exec` was not found, so the operating system does not confine the REPL process'] };
    const args = macosSandboxArgs({ distDir: resolve(inputs.distDir), execPath: inputs.execPath });
    return {
      kind: 'macos-sandbox',
      hidden: [],
      notes: ['the profile is not probed for files apart from the permission model: it is counted for files only where its network probes held'],
      wrap: (program, rest) => ({ command: sandboxExec, args: [...args, program, ...rest] }),
    };
  }
  if (inputs.platform === 'win32') {
    // Said plainly: Windows' confinement (restricted tokens, AppContainers, job objects, firewall rules)
    // needs native code or an administrator, and this extension ships neither. Files stay behind layer 2
    // and the permission model; the network behind layer 2 alone, which the two-layer rule refuses unless
    // the user accepts it.
    return { kind: 'none', hidden: [], notes: ['Windows: no operating-system sandbox; Windows offers none a process can apply to itself without native code or an administrator, so the network is kept out by layer 2 alone'] };
  }
  return { kind: 'none', hidden: [], notes: [`this platform (${inputs.platform}) offers no sandbox the REPL can use without privileges, so the network is kept out by layer 2 alone`] };
}

export function planLaunch(inputs: LaunchInputs): LaunchPlan {
  const notes: string[] = [];
  // --single-threaded: V8 runs its own compile and GC jobs on the thread that asked for them instead
  // of on helper threads. A run hands each turn from the host to this process's main thread, to the
  // Pyodide worker and back; meanwhile V8's helpers were tiering up Pyodide's WebAssembly and
  // collecting garbage, and on a two-core machine they took the cores those hand-offs waited for.
  // Measured side by side, REPLs with and without it alternating, instant model through the openai
  // SDK: a whole turn 4.7 -> 3.0 ms median and 9.6 -> 6.9 ms p90; start-up, binding, the bridge and
  // long cells (regex over 50 MB, pure Python loops, first runs included) unchanged.
  const execArgv = ['--disallow-code-generation-from-strings', '--single-threaded'];
  // Electron's binary starts a GUI app unless told to act as Node; that variable carries no secret.
  const env: Record<string, string> = inputs.isElectron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  let permissionFlag: LaunchPlan['permissionFlag'];
  if (inputs.nodeFlags.has('--permission')) permissionFlag = '--permission';
  else if (inputs.nodeFlags.has('--experimental-permission')) permissionFlag = '--experimental-permission';
  if (inputs.isElectron) notes.push(`the host runs on Electron${inputs.electronVersion ? ` ${inputs.electronVersion}` : ''}; the REPL runs it as Node (ELECTRON_RUN_AS_NODE), and whether the permission model holds there is probed at start, not assumed`);
  if (!inputs.usePermissionModel) {
    notes.push('the Node permission model was turned off (it failed to start and a weaker sandbox was accepted, or a test turned it off)');
  } else if (!permissionFlag) {
    notes.push(`this Node (${process.version}) has no permission model: file system and child-process access are not blocked at the Node level`);
  } else {
    const at = inputs.platform === 'win32' ? win32.join : join;
    const readable = [
      at(inputs.distDir, 'replProcess.js'),
      at(inputs.distDir, 'replWorker.js'),
      at(inputs.distDir, 'esmGuardHooks.mjs'),
      at(inputs.distDir, 'pyodide', '*'),
    ];
    // One flag per path: this Node 20 reads a comma inside the value as part of the path.
    execArgv.push(permissionFlag, ...readable.map((p) => `--allow-fs-read=${p}`), '--allow-worker');
    // The experimental-feature and --allow-worker warnings say nothing a user can act on.
    if (inputs.nodeFlags.has('--disable-warning')) execArgv.push('--disable-warning=ExperimentalWarning', '--disable-warning=SecurityWarning');
  }
  const os = planOsIsolation(inputs);
  const nodeArgs = [...execArgv, (inputs.platform === 'win32' ? win32.join : join)(inputs.distDir, 'replProcess.js')];
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
