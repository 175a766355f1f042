// The rule that a run needs two independent layers between model-written code and the host, for host
// files and for the network, counted from what the probes found (never from what the launch meant to
// do). Layer 1 is not counted: Python reaching JavaScript has been shown more than once, so the rule
// assumes JavaScript runs in the worker. Fewer than two: no model-written code runs unless the user has
// accepted the weaker sandbox, and the record says which (docs/security.md).
import type { ErrorKind } from '../errorKind';
import type { OsIsolationKind } from './replLaunch';
import type { SandboxProtections, SandboxProbe, SandboxStrength } from './replTypes';

const PERMISSION_PROBE = /^permission model:/;

const LOCKDOWN = 'layer 2 (the REPL runtime lockdown)';
const PERMISSION = "Node's permission model";

const OS_NAMES: Record<OsIsolationKind, string> = {
  'linux-namespaces': 'layer 3 (Linux namespaces)',
  'macos-sandbox': 'layer 3 (the macOS sandbox profile)',
  none: 'layer 3',
};

/** The layers that held, from a protections record and the OS layer the launch used. */
export function sandboxStrength(p: SandboxProtections, osKind: OsIsolationKind): SandboxStrength {
  const runtime = p.layers.find((l) => l.id === 'runtime');
  const os = p.layers.find((l) => l.id === 'os');
  const permission = (runtime?.probes ?? []).filter((probe) => PERMISSION_PROBE.test(probe.name));
  const lockdownHeld = !!runtime?.on;
  const permissionHeld = permission.length > 0 && permission.every((probe) => probe.held);
  const osHeld = osKind !== 'none' && !!os?.on;
  const file = [...(lockdownHeld ? [LOCKDOWN] : []), ...(permissionHeld ? [PERMISSION] : []), ...(osHeld && osKind === 'macos-sandbox' ? [OS_NAMES[osKind]] : [])];
  const network = [...(lockdownHeld ? [LOCKDOWN] : []), ...(osHeld ? [OS_NAMES[osKind]] : [])];
  const missing: string[] = [];
  const phrase = (what: string, held: string[], absent: string[]): string =>
    `${what} ${held.length ? `only ${held.join(' and ')} holds` : 'no layer holds'}${absent.length ? ` (${absent.join('; ')})` : ''}`;
  if (file.length < 2) missing.push(phrase('for host files', file, [...(lockdownHeld ? [] : [whyOff(runtime?.probes ?? [], LOCKDOWN)]), ...(permissionHeld ? [] : [whyOff(permission, PERMISSION)])]));
  if (network.length < 2) missing.push(phrase('for the network', network, [...(lockdownHeld ? [] : [whyOff(runtime?.probes ?? [], LOCKDOWN)]), ...(osHeld ? [] : [whyOff(os?.probes ?? [], OS_NAMES[osKind], os?.notes[0])])]));
  return { file, network, missing };
}

function whyOff(probes: SandboxProbe[], name: string, note?: string): string {
  const failed = probes.find((probe) => !probe.held && !PERMISSION_PROBE.test(probe.name)) ?? probes.find((probe) => !probe.held);
  if (failed) return `${name} is not in force: ${failed.name}: ${failed.detail}`;
  return `${name} is not in force${note ? `: ${note}` : ''}`;
}

/** The setting (VS Code) and the flag (CLI) that accept a weaker sandbox. */
export const ALLOW_WEAKER_SETTING = 'rlm.sandbox.allowWeaker';
const ALLOW_WEAKER_FLAG = '--allow-weaker-sandbox';

/**
 * The REPL's sandbox holds fewer than two independent layers for host files or the network, and the user
 * has not accepted that: nothing model-written runs. The message is the one sentence the user sees.
 */
export class WeakSandboxError extends Error {
  override readonly name = 'WeakSandboxError';
  readonly errorKind: ErrorKind = 'sandbox';
  constructor(readonly missing: string[]) {
    super(
      `No model-written code will run, because the REPL sandbox has fewer than two independent layers ${missing.join(', and ')}; to accept this weaker sandbox, add this folder to the user setting \`${ALLOW_WEAKER_SETTING}\` in VS Code, or pass \`${ALLOW_WEAKER_FLAG}\` to the rlm CLI.`,
    );
  }
}
