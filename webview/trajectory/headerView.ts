// The run header: question, answer (markdown, copy), status, models, counts, tokens, cost, time,
// badges for errors, fallbacks and limits, sandbox protections, and Stop while live.
import type { ProtectionView, RunHeaderView } from '../../src/shared/trajectoryProtocol';
import { renderMarkdown } from '../common/markdown';
import { el, icon, iconButton } from '../common/dom';
import { textBlock } from './textBlock';
import { formatCost, formatDuration, formatTokenCount } from '../../src/shared/format';
import { statusIcon, statusLabel } from './viewFormat';
import type { RenderContext } from './renderContext';

function stat(label: string, value: string): HTMLElement {
  return el('div', { className: 'stat' }, [el('span', { className: 'stat-label', text: label }), el('span', { className: 'stat-value', text: value })]);
}

export function headerView(ctx: RenderContext, h: RunHeaderView, live: boolean, now: number): HTMLElement {
  const root = el('header', { className: `run-header status-${h.status}`, attrs: { id: 'run-header' } });
  const statusLine = el('div', { className: 'status-line' }, [
    h.loading
      ? el('span', { className: 'status-badge status-loading', attrs: { role: 'status' } }, [icon('loading', 'codicon-modifier-spin'), ` Reading the file… ${h.iterations} turns so far`])
      : el('span', { className: `status-badge status-${h.status}`, attrs: { role: 'status' } }, [icon(statusIcon(h.status), h.status === 'running' ? 'codicon-modifier-spin' : ''), ` ${statusLabel(h.status)}`]),
    h.forced ? el('span', { className: 'badge warn', text: 'answer was forced' }) : null,
    h.totals.errors ? el('span', { className: 'badge error', text: `${h.totals.errors} error${h.totals.errors === 1 ? '' : 's'}` }) : null,
    h.fallbacks.length ? el('span', { className: 'badge warn', text: `${h.fallbacks.length} fallback${h.fallbacks.length === 1 ? '' : 's'}`, title: h.fallbacks.map((f) => `${f.kind}: ${f.detail}`).join('\n') }) : null,
    h.limitWarnings.length ? el('span', { className: 'badge warn', text: `limits: ${[...new Set(h.limitWarnings.map((w) => w.limit))].join(', ')}`, title: h.limitWarnings.map((w) => `${w.limit} ${w.value}/${w.max}`).join('\n') }) : null,
    h.error?.limit ? el('span', { className: 'badge error', text: `limit hit: ${h.error.limit}` }) : null,
    h.problems.count ? el('span', { className: 'badge warn', text: `${h.problems.count} file problem${h.problems.count === 1 ? '' : 's'}`, title: h.problems.first.join('\n') }) : null,
    sandboxBadge(h.protections),
    live && h.status === 'running' ? iconButton('debug-stop', 'Stop the run', () => ctx.bridge.post({ type: 'stop' }), 'Stop') : null,
  ]);
  root.appendChild(statusLine);
  root.appendChild(el('div', { className: 'question' }, [el('span', { className: 'stat-label', text: 'Question' }), textBlock(ctx, h.question, { kind: 'question', runId: h.runId }, { className: 'question-text' })]));
  if (h.error) root.appendChild(el('div', { className: 'error-box', attrs: { role: 'alert' } }, [icon('error'), ` ${h.error.kind}: ${h.error.message}`]));
  if (h.answer) {
    const body = el('div', { className: 'markdown answer-body' });
    renderMarkdown(document, body, h.answer.text);
    if (h.answer.totalChars > h.answer.text.length) body.appendChild(el('div', { className: 'muted', text: `(answer clipped at ${h.answer.text.length} of ${h.answer.totalChars} characters; Copy answer copies all of it)` }));
    root.appendChild(
      el('section', { className: 'answer', attrs: { id: 'final-answer', tabindex: '-1', 'aria-label': 'Final answer' } }, [
        el('div', { className: 'answer-head' }, [el('span', { className: 'stat-label', text: h.forced ? 'Answer (forced)' : 'Answer' }), iconButton('copy', 'Copy answer', () => ctx.bridge.post({ type: 'copy', ref: { kind: 'answer', runId: h.runId } }), 'Copy answer')]),
        body,
      ]),
    );
  }
  if (!h.answer && h.partial) {
    root.appendChild(
      el('section', { className: 'partial-findings', attrs: { 'aria-label': 'Partial findings, not an answer' } }, [
        el('div', { className: 'stat-label', text: 'No answer. Partial findings (the last output, not an answer)' }),
        el('pre', { className: 'partial-text', text: h.partial.text }),
      ]),
    );
  }
  const wall = (h.finishedAt ?? now) - h.startedAt;
  root.appendChild(
    el('div', { className: 'stats' }, [
      stat('Root model', h.rootModel ?? '–'),
      stat('Sub model', h.subModel ?? (h.models.join(', ') || '–')),
      stat('Iterations', String(h.iterations)),
      stat('Sub-calls', String(h.totals.subCalls)),
      stat('Input tokens', formatTokenCount(h.totals.inputTokens)),
      stat('Output tokens', formatTokenCount(h.totals.outputTokens)),
      stat('Cost', formatCost(h.totals.costUsd, h.totals.costUnknown)),
      stat('Wall time', formatDuration(h.totals.wallTimeMs || wall)),
    ]),
  );
  const details = el('details', { className: 'run-details' }, [el('summary', { text: 'Run details and sandbox protections' })]);
  details.appendChild(
    el('div', { className: 'details-body' }, [
      h.target ? el('div', { text: `Target: ${h.target}` }) : null,
      h.contextSummary ? el('div', { text: `Context: ${h.contextSummary}` }) : null,
      el('div', { text: `Source: ${h.source} (${h.format} format)` }),
      h.models.length ? el('div', { text: `Sub-call models: ${h.models.join(', ')} · deepest depth ${h.maxDepth}` }) : null,
      h.protections.length
        ? el('ul', { className: 'protections' }, h.protections.map(protectionItem))
        : el('div', { className: 'muted', text: 'Sandbox protections were not recorded.' }),
      ...h.protectionNotes.map((n) => el('div', { className: 'note', text: n })),
      ...h.fallbacks.map((f) => el('div', { className: 'note warn', text: `Fallback ${f.kind}: ${f.detail}` })),
      ...h.problems.first.map((p) => el('div', { className: 'note warn', text: p })),
    ]),
  );
  root.appendChild(details);
  return root;
}

/** One sandbox layer: on/off, and what was probed at start (the failed probes first). */
function protectionItem(p: ProtectionView): HTMLElement {
  const held = p.probes.filter((x) => x.held).length;
  const counts = p.probes.length ? ` · ${held} of ${p.probes.length} probes held` : '';
  const item = el('li', { className: p.on ? 'on' : 'off' }, [icon(p.on ? 'shield' : 'warning'), ` ${p.label}: ${p.on ? 'on' : 'off'}${counts}`]);
  if (p.probes.length || p.notes.length) {
    const probes = [...p.probes].sort((a, b) => Number(a.held) - Number(b.held));
    const list = el('details', { className: 'probes' }, [
      el('summary', { text: 'What was probed' }),
      el('ul', {}, probes.map((x) => el('li', { className: x.held ? 'held' : 'failed', text: `${x.held ? 'held' : 'FAILED'}: ${x.name} (${x.detail})` }))),
      ...p.notes.map((n) => el('div', { className: 'note', text: n })),
    ]);
    item.appendChild(list);
  }
  return item;
}

/** A warning when a sandbox layer did not hold (details under "Run details and sandbox protections"). */
function sandboxBadge(protections: ProtectionView[]): HTMLElement | null {
  const off = protections.filter((p) => !p.on);
  if (!protections.length || !off.length) return null;
  return el('span', { className: 'badge warn', text: `sandbox: ${off.length} of ${protections.length} layers off`, title: off.map((p) => p.label).join('\n') });
}

