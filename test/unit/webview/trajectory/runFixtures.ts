// Run trees for the view's tests, built by the real TreeBuilder from synthetic or hand-written events.
import type { EventRecord, RunEvent } from '../../../../src/core/trajectory/events';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import type { RunNode } from '../../../../src/core/trajectory/treeTypes';
import { syntheticConfig, syntheticEvents, type SyntheticOptions } from '../../../fixtures/trajectories/generate';
import type { SandboxProtections } from '../../../../src/core/repl/replTypes';

export function syntheticRun(opts: SyntheticOptions): RunNode {
  const builder = new TreeBuilder();
  for (const record of syntheticEvents(opts)) builder.apply(record);
  if (!builder.tree) throw new Error('no run');
  return builder.tree;
}

/** Every layer on but the OS one, whose probe reached the host (as on a platform without namespaces). */
const protections: SandboxProtections = {
  version: 2,
  layers: [
    { id: 'python', on: true, probes: [{ name: 'import js', held: true, detail: 'ModuleNotFoundError' }], notes: [] },
    { id: 'runtime', on: true, probes: [{ name: "require('node:net')", held: true, detail: 'ERR_RLM_SANDBOX_DENIED' }], notes: [] },
    { id: 'os', on: false, probes: [{ name: "TCP to the host's 127.0.0.1:1", held: false, detail: 'connected: the host was reachable' }], notes: ['this platform offers no sandbox'] },
    { id: 'process', on: true, probes: [{ name: 'used by no other run', held: true, detail: 'started for this run' }], notes: [] },
  ],
  notes: [],
};

/** Numbers and timestamps events as the loop's emitter does. */
export function recorder(start = 1_000): { at(event: RunEvent, stepMs?: number): EventRecord } {
  let seq = 0;
  let ts = start;
  return {
    at(event, stepMs = 10) {
      ts += stepMs;
      return { ...event, seq: ++seq, ts } as EventRecord;
    },
  };
}

const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

/**
 * A small run whose model and file text is hostile HTML: the question, reasoning, code, outputs,
 * error, prompts, responses and the answer all carry `<script>` and `<img onerror>`.
 */
export function hostileEvents(): EventRecord[] {
  const r = recorder();
  const runId = 'xss-run';
  return [
    r.at({ type: 'run.started', runId, depth: 0, question: `Question ${HOSTILE}`, context: { type: 'str', totalChars: 10, totalBytes: 10, fileCount: 1, prefix: HOSTILE, files: [], filesOmitted: 0, invalidUtf8Replacements: 0 }, config: syntheticConfig, protections }),
    r.at({ type: 'turn.started', runId, turn: 1 }),
    r.at({ type: 'model.output', runId, turn: 1, text: `Reasoning ${HOSTILE}\n\n[link](javascript:alert(1))\n\`\`\`repl\nprint("${HOSTILE}")\n\`\`\``, usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.001 }, latencyMs: 100, finishReason: 'stop', requestBytes: 100 }),
    r.at({ type: 'cell.started', runId, turn: 1, cellId: 'c1', code: `print("${HOSTILE}")` }),
    r.at({ type: 'subcall.started', runId, callId: 'k1', cellId: 'c1', kind: 'llm_query', depth: 1, model: syntheticConfig.sub, prompt: `Prompt ${HOSTILE}` }),
    r.at({ type: 'subcall.finished', runId, callId: 'k1', response: `Response ${HOSTILE}`, usage: { inputTokens: 3, outputTokens: 2, costUsd: 0.0001 }, latencyMs: 50 }),
    r.at({ type: 'cell.finished', runId, cellId: 'c1', stdout: `${HOSTILE}\n`, stderr: `err ${HOSTILE}`, stdoutChars: HOSTILE.length + 1, stderrChars: HOSTILE.length + 4, error: { type: 'ValueError', message: HOSTILE, traceback: `Traceback ${HOSTILE}` }, newVariables: ['x'], durationMs: 5, outIndex: 0, final: { value: `Final ${HOSTILE}`, via: 'FINAL' } }),
    r.at({ type: 'answer', runId, text: `Answer ${HOSTILE}`, forced: false, via: 'FINAL' }),
    r.at({ type: 'run.finished', runId, status: 'completed', answer: `Answer ${HOSTILE}`, forced: false, totals: { inputTokens: 13, outputTokens: 7, costUsd: 0.0011, costUnknown: false, subCalls: 1, iterations: 1, wallTimeMs: 100 } }),
  ];
}

export function buildRun(records: EventRecord[]): RunNode {
  const builder = new TreeBuilder();
  for (const record of records) builder.apply(record);
  if (!builder.tree) throw new Error('no run');
  return builder.tree;
}
