// One-line notes for --verbose: the events a user should see while a run goes on.
import { protectionsSummary, readProtections } from '../../core/repl/sandboxReport';
import type { EventRecord } from '../../core/trajectory/events';
import { describeBatchEstimate } from '../../core/trajectory/treeBuilder';
import { describeProviderBatch } from '../../shared/text/providerBatchText';

export function describeEventForLog(record: EventRecord): string | undefined {
  switch (record.type) {
    case 'run.started': {
      const where = record.depth > 0 ? ` (child run, depth ${record.depth})` : '';
      const protections = readProtections(record.protections);
      return `rlm: run ${record.runId}${where} started; sandbox: ${protections ? protectionsSummary(protections) : 'not recorded'}`;
    }
    case 'protocol.notice':
      return `rlm: turn ${record.turn}: ${record.kind}: ${record.message}`;
    case 'fallback':
      return `rlm: fallback (${record.kind}): ${record.detail}`;
    case 'batch.estimated':
      return `rlm: ${describeBatchEstimate(record)}`;
    case 'batch.submitted':
      return `rlm: ${record.resumed ? 'taking up the recorded' : 'sent'} ${record.provider === 'anthropic' ? 'Anthropic message batch' : 'OpenAI batch'} ${record.providerBatchId} of ${record.items.length} request(s) at the batch price; waiting for it (Ctrl-C cancels it)`;
    case 'batch.progress':
    case 'batch.ended':
      return `rlm: ${describeProviderBatch({ providerBatchId: record.providerBatchId, status: record.status, counts: record.counts, elapsedMs: record.elapsedMs, ended: record.type === 'batch.ended', ...(record.type === 'batch.ended' && record.cancelled ? { cancelled: true } : {}), ...(record.type === 'batch.ended' && record.failure ? { failure: record.failure } : {}) })}`;
    case 'limit.warning':
      return `rlm: warning: ${record.limit} at ${Math.round(record.value * 100) / 100} of ${record.max}`;
    case 'cell.finished':
      return record.error ? `rlm: cell error: ${record.error.type}: ${record.error.message}` : undefined;
    default:
      return undefined;
  }
}

/** "rlm: warning: sandbox layer 3 OFF (...)" when a layer of the run's REPL did not hold; undefined when all did. */
export function sandboxWarningLine(raw: unknown): string | undefined {
  const protections = readProtections(raw);
  // An accepted weaker sandbox is always said, even when every layer's own probes held.
  if (!protections || (protections.layers.every((l) => l.on) && !protections.strength?.acceptedWeaker)) return undefined;
  return `rlm: warning: sandbox ${protectionsSummary(protections)} (see docs/security.md)`;
}
