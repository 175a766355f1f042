// The sandbox record as people read it: layer titles, a one-line summary for the CLI, and the reading
// of records written by earlier versions (flat booleans, claimed rather than probed).
import type { SandboxLayer, SandboxLayerId, SandboxProbe, SandboxProtections, SandboxStrength } from './replTypes';

export const LAYER_TITLES: Record<SandboxLayerId, string> = {
  python: 'Layer 1 · Python reaches no JavaScript object',
  runtime: 'Layer 2 · No network, host file, process or stack-trace API in the REPL process',
  os: 'Layer 3 · Operating system: no network for the REPL process',
  process: 'Layer 4 · A separate, fresh process for this run',
};

const LAYER_NUMBER: Record<SandboxLayerId, number> = { python: 1, runtime: 2, os: 3, process: 4 };

/** e.g. "all 4 layers on (probed at start)" or "layer 3 OFF (this platform ...); layers 1, 2, 4 on". */
export function protectionsSummary(p: SandboxProtections): string {
  const weaker = p.strength?.acceptedWeaker ? `WEAKER SANDBOX ACCEPTED (${p.strength.missing.join('; ')}); ` : '';
  return weaker + layersSummary(p);
}

function layersSummary(p: SandboxProtections): string {
  const on = p.layers.filter((l) => l.on).map((l) => LAYER_NUMBER[l.id]);
  const off = p.layers.filter((l) => !l.on);
  if (off.length === 0) return `all ${on.length} layers on (probed at start)`;
  const why = (l: SandboxLayer): string => {
    const failed = l.probes.find((probe) => !probe.held);
    const reason = failed ? `${failed.name}: ${failed.detail}` : l.notes[0] ?? 'not probed';
    return `layer ${LAYER_NUMBER[l.id]} OFF (${reason})`;
  };
  return `${off.map(why).join('; ')}${on.length ? `; layer${on.length > 1 ? 's' : ''} ${on.join(', ')} on` : ''}`;
}

/** The probes that failed, each as "layer N: name (detail)". */
export function failedProbes(p: SandboxProtections): string[] {
  return p.layers.flatMap((l) => l.probes.filter((probe) => !probe.held).map((probe) => `layer ${LAYER_NUMBER[l.id]}: ${probe.name} (${probe.detail})`));
}

type LegacyProtections = Record<'separateProcess' | 'emptyEnvironment' | 'codeGenerationFromStringsDisallowed' | 'permissionModel' | 'jsGlobalsRestricted' | 'pyodideJsUnregistered' | 'networkApisRemoved', boolean> & { notes?: string[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const LEGACY_NOTE = 'recorded by an earlier version, which claimed these protections without probing them; its Python could still reach JavaScript';

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** The two-layer count of a record (sandboxStrength.ts); absent in records written before it. */
function readStrength(raw: unknown): SandboxStrength | undefined {
  if (!isObject(raw)) return undefined;
  return { file: strings(raw.file), network: strings(raw.network), missing: strings(raw.missing), ...(raw.acceptedWeaker === true ? { acceptedWeaker: true } : {}) };
}

/**
 * Reads a trajectory's `protections` field: version 2 as written now, or version 1's flat booleans
 * (shown as claims, with layer 1 off). Anything else is undefined: "not recorded".
 */
export function readProtections(raw: unknown): SandboxProtections | undefined {
  if (!isObject(raw)) return undefined;
  if (raw.version === 2 && Array.isArray(raw.layers)) {
    const layers = raw.layers.filter(isObject).map((l): SandboxLayer => ({
      id: (['python', 'runtime', 'os', 'process'].includes(String(l.id)) ? l.id : 'process') as SandboxLayerId,
      on: l.on === true,
      probes: Array.isArray(l.probes) ? l.probes.filter(isObject).map((p): SandboxProbe => ({ name: String(p.name ?? ''), held: p.held === true, detail: String(p.detail ?? '') })) : [],
      notes: Array.isArray(l.notes) ? l.notes.map(String) : [],
    }));
    const strength = readStrength(raw.strength);
    return { version: 2, layers, notes: Array.isArray(raw.notes) ? raw.notes.map(String) : [], ...(strength ? { strength } : {}) };
  }
  if (typeof raw.separateProcess !== 'boolean') return undefined;
  const old = raw as unknown as LegacyProtections;
  const claim = (name: string, held: boolean): SandboxProbe => ({ name, held, detail: 'claimed by the record, not probed' });
  return {
    version: 2,
    layers: [
      { id: 'python', on: false, probes: [claim('`import js` restricted', old.jsGlobalsRestricted), claim('`pyodide_js` removed', old.pyodideJsUnregistered)], notes: [LEGACY_NOTE] },
      { id: 'runtime', on: false, probes: [claim('network globals removed', old.networkApisRemoved), claim('code from strings disallowed', old.codeGenerationFromStringsDisallowed), claim('Node permission model', old.permissionModel)], notes: [LEGACY_NOTE] },
      { id: 'os', on: false, probes: [], notes: ['not recorded by that version'] },
      { id: 'process', on: false, probes: [claim('a separate process', old.separateProcess), claim('empty environment', old.emptyEnvironment)], notes: ['that version reused a REPL across runs'] },
    ],
    notes: Array.isArray(old.notes) ? old.notes.map(String) : [],
  };
}
