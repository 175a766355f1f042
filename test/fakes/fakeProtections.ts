// A sandbox record with every layer on, for fakes that need one (the real one comes from the probes).
import type { SandboxLayerId, SandboxProtections } from '../../src/core/repl/replTypes';

export function allLayersOn(): SandboxProtections {
  const ids: SandboxLayerId[] = ['python', 'runtime', 'os', 'process'];
  return { version: 2, layers: ids.map((id) => ({ id, on: true, probes: [{ name: `${id} probe`, held: true, detail: 'held' }], notes: [] })), notes: [] };
}
