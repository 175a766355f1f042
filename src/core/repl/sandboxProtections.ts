// The SandboxProtections a session reports: the four layers of docs/security.md, each assembled from the
// probes the REPL process ran at start and what the host itself observed, never from what the launch
// meant to do. A layer is on only when every one of its probes held.
import type { LaunchPlan } from './replLaunch';
import type { ReadyInfo } from './replProtocol';
import type { SandboxLayer, SandboxLayerId, SandboxProbe, SandboxProtections } from './replTypes';

export const LAYER_ORDER: SandboxLayerId[] = ['python', 'runtime', 'os', 'process'];

/**
 * Layer-2 probes whose failure is reported but does not stop a run (see docs/security.md): the Node
 * permission model's, which is depth under layer 2's own file lockdown and may be missing under Electron.
 */
const NON_BLOCKING_RUNTIME_PROBES = /^(permission model:|starting a host program)/;

export function emptyProtections(note = 'the REPL has not started'): SandboxProtections {
  return { version: 2, layers: LAYER_ORDER.map((id) => ({ id, on: false, probes: [], notes: [] })), notes: [note] };
}

function layer(id: SandboxLayerId, probes: SandboxProbe[], notes: string[] = []): SandboxLayer {
  return { id, on: probes.length > 0 && probes.every((p) => p.held), probes, notes };
}

export interface HostObservations {
  plan: LaunchPlan;
  /** The canary saw this start's token: the process reached the host's network. */
  canaryReached: boolean;
  /** No other run has had this process (always true for sessions from the pool). */
  fresh: boolean;
}

export function protectionsFrom(ready: ReadyInfo, host: HostObservations): SandboxProtections {
  const { plan } = host;
  const networkProbes = [...ready.networkProbes];
  if (host.canaryReached) networkProbes.push({ name: "the host's canary listener saw this process connect", held: false, detail: 'the network was reachable' });
  const osNotes = [...plan.os.notes];
  if (plan.os.kind === 'linux-namespaces') osNotes.unshift(`Linux namespaces: no network, ${plan.os.hidden.length ? `empty ${plan.os.hidden.join(', ')}` : 'no folder hidden'}`);
  if (plan.os.kind === 'macos-sandbox') osNotes.unshift('macOS sandbox-exec profile denying network access');
  const os = plan.os.kind === 'none' ? { id: 'os' as const, on: false, probes: networkProbes, notes: osNotes } : layer('os', networkProbes, osNotes);
  const processProbes = [...ready.processProbes, { name: 'used by no other run', held: host.fresh, detail: host.fresh ? 'started for this run, killed when it ends' : 'reused' }];
  // Node's permission model is reported with layer 2 but does not decide it: layer 2's own lockdown keeps
  // host files out whether or not the model is honoured (Electron may not), and sandboxStrength.ts counts
  // the model as a separate layer only where its probes held.
  const permissionProbes = ready.permissionProbes ?? [];
  const runtime = layer('runtime', ready.runtimeProbes, [...plan.notes, ...permissionNotes(permissionProbes)]);
  runtime.probes = [...ready.runtimeProbes, ...permissionProbes];
  const env = Object.keys(plan.env);
  return {
    version: 2,
    layers: [
      layer('python', ready.pythonProbes),
      runtime,
      os,
      layer('process', processProbes, env.length ? [`the environment holds only ${env.join(', ')} (needed to run Electron as Node)`] : []),
    ],
    notes: ready.notes,
  };
}

function permissionNotes(probes: SandboxProbe[]): string[] {
  if (probes.length === 0) return ["Node's permission model was not probed"];
  return [probes.every((p) => p.held) ? "Node's permission model is in force (probed: process.permission, a refused read and write)" : "Node's permission model is NOT in force; layer 2's file lockdown still holds"];
}

/** Why a run must not start in this REPL: layer 1 or the blocking part of layer 2 failed. Empty: it may. */
export function blockingFailures(p: SandboxProtections): string[] {
  const failures: string[] = [];
  for (const l of p.layers) {
    if (l.id !== 'python' && l.id !== 'runtime') continue;
    if (l.probes.length === 0) failures.push(`${l.id}: not probed`);
    for (const probe of l.probes) {
      if (probe.held || (l.id === 'runtime' && NON_BLOCKING_RUNTIME_PROBES.test(probe.name))) continue;
      failures.push(`${l.id}: ${probe.name} (${probe.detail})`);
    }
  }
  return failures;
}

/** The layer with this id (every protections record has all four). */
export function layerOf(p: SandboxProtections, id: SandboxLayerId): SandboxLayer | undefined {
  return p.layers.find((l) => l.id === id);
}
