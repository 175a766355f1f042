// The run header: how the run ended (or that it runs) in words, the question, the answer (markdown,
// copy) or the partial findings clearly marked as not an answer, the figures (cost honest about
// local servers and unknown prices), badges for fallbacks, limits, file problems and the sandbox,
// and Continue / Fork once ended (Stop is in the toolbar, which stays in sight while the view follows a run).
import type { ProtectionView, RunHeaderView } from '../../src/shared/trajectoryProtocol';
import { cacheText } from '../../src/shared/text/cacheText';
import { totalsCostText } from '../../src/shared/text/costText';
import { formatLiveLine, liveLineOf } from '../../src/shared/text/liveLine';
import { formatCount, formatDuration, formatTokenCount, plural } from '../../src/shared/text/format';
import { renderMarkdown } from '../common/markdown';
import { linkMentions } from '../common/mentionLinks';
import { actionButton, el, icon, iconButton, spinner } from '../common/dom';
import { textBlock } from './textBlock';
import type { RenderContext } from './renderContext';
import { conversationView } from './conversationView';
import { referencesView } from './referencesView';
import { coverageStrip } from './coverageStrip';

/** Continue / fork a finished root run that has a file (the host checks again). */
function continueButtons(ctx: RenderContext, h: RunHeaderView): HTMLElement[] {
  if (h.depth !== 0 || h.status === 'running' || h.loading || h.format !== 'rlm') return [];
  return [
    iconButton('comment-discussion', 'Continue this run: replay it, then ask a follow-up', () => ctx.bridge.post({ type: 'continueRun', fork: false }), 'Continue this run…', { focusKey: 'continue-run' }),
    iconButton('repo-forked', 'Fork from a turn: replay the turns before it, the root takes over there', () => ctx.bridge.post({ type: 'continueRun', fork: true }), 'Fork from this turn…', { focusKey: 'fork-run' }),
  ];
}

function stat(label: string, value: string | HTMLElement, extra?: HTMLElement | null): HTMLElement {
  return el('div', { className: 'stat' }, [
    el('span', { className: 'stat-label', text: label }),
    el('span', { className: 'stat-value' }, [value, extra ?? null]),
  ]);
}

const TONE_ICONS = { ok: 'pass', neutral: 'stop-circle', warning: 'warning', error: 'error' } as const;

function outcomeLine(ctx: RenderContext, h: RunHeaderView): HTMLElement {
  const o = h.outcome;
  const mark = h.loading ? spinner() : o.tone === 'running' ? spinner() : icon(TONE_ICONS[o.tone]);
  const text = h.loading ? `Reading the file… ${plural(h.iterations, 'turn')} so far` : o.headline;
  // The errors a stop causes (an interrupted cell, cancelled sub-calls) are not news; the run's own error is told by the headline.
  const errors = h.status === 'cancelled' ? 0 : Math.max(0, h.totals.errors - (h.error ? 1 : 0));
  return el('div', { className: 'status-line' }, [
    el('span', { className: `status-badge tone-${h.loading ? 'running' : o.tone} status-${h.status}`, attrs: { role: 'status', 'data-testid': 'outcome' } }, [mark, ` ${text}`]),
    errors ? el('span', { className: 'badge error', text: plural(errors, 'error') }) : null,
    h.fallbacks.length ? el('span', { className: 'badge warn', text: plural(h.fallbacks.length, 'fallback'), title: h.fallbacks.map((f) => `${f.kind}: ${f.detail}`).join('\n') }) : null,
    h.limitWarnings.length && h.status === 'running' ? el('span', { className: 'badge warn', text: `near a limit: ${[...new Set(h.limitWarnings.map((w) => w.limit))].join(', ')}`, title: h.limitWarnings.map((w) => `${w.limit} ${w.value} of ${w.max}`).join('\n') }) : null,
    h.problems.count ? el('span', { className: 'badge warn', text: plural(h.problems.count, 'file problem'), title: h.problems.first.join('\n') }) : null,
    sandboxBadge(h.protections),
    parentLink(ctx, h),
    ...continueButtons(ctx, h),
  ]);
}

/** "Forked at turn 3 from “How many errors…?”": the parent named by its question, a link that opens it. */
function parentLink(ctx: RenderContext, h: RunHeaderView): HTMLElement | null {
  const from = h.continuedFrom;
  if (!from) return null;
  const question = from.question.length > 80 ? `${from.question.slice(0, 79)}…` : from.question;
  const target = from.openable
    ? actionButton(`“${question}”`, () => ctx.bridge.post({ type: 'openParent' }), { title: `Open the run this one came from: ${from.question}`, testId: 'open-parent', focusKey: 'open-parent' })
    : el('span', { text: `“${question}”`, title: from.question });
  return el('span', { className: 'badge parent-run', attrs: { 'data-testid': 'continued-from' } }, [`${from.relation} `, target]);
}

/** "Ask again" and "Open rlm.maxCostUsd" for runs that ended without an answer or at a limit. */
function outcomeActions(ctx: RenderContext, h: RunHeaderView): HTMLElement | null {
  const o = h.outcome;
  const actions = [
    o.askAgain ? actionButton('Ask again in the chat', () => ctx.bridge.post({ type: 'askAgain' }), { icon: 'comment-discussion', testId: 'ask-again', focusKey: 'ask-again' }) : null,
    o.setting ? actionButton(`Open ${o.setting}`, () => ctx.bridge.post({ type: 'openSetting', setting: o.setting! }), { icon: 'settings-gear', focusKey: 'open-setting' }) : null,
  ].filter((a): a is HTMLButtonElement => a !== null);
  return actions.length ? el('div', { className: 'outcome-actions' }, actions) : null;
}

function answerSection(ctx: RenderContext, h: RunHeaderView): HTMLElement | null {
  if (h.answer) {
    const body = el('div', { className: 'markdown answer-body' });
    renderMarkdown(document, body, h.answer.text);
    linkMentions(body, h.references ?? [], (index) => ctx.bridge.post({ type: 'openReference', runId: h.runId, index }));
    if (h.answer.totalChars > h.answer.text.length) body.appendChild(el('div', { className: 'muted', text: `(The answer is clipped at ${formatCount(h.answer.text.length)} of ${formatCount(h.answer.totalChars)} characters; Copy answer copies all of it.)` }));
    return el('section', { className: 'answer', attrs: { id: 'final-answer', tabindex: '-1', 'aria-label': 'Answer' } }, [
      el('div', { className: 'answer-head' }, [
        el('span', { className: 'stat-label', text: h.forced ? 'Best answer at the limit' : 'Answer' }),
        iconButton('copy', 'Copy answer', () => ctx.bridge.post({ type: 'copy', ref: { kind: 'answer', runId: h.runId } }), 'Copy answer', { focusKey: 'copy-answer-header' }),
      ]),
      body,
    ]);
  }
  if (h.partial) {
    return el('section', { className: 'partial-findings', attrs: { 'aria-label': 'Partial findings, not an answer', 'data-testid': 'partial-findings' } }, [
      el('div', { className: 'partial-head' }, [icon('info'), el('span', { className: 'stat-label', text: 'Partial findings — not an answer' })]),
      el('p', { className: 'muted small', text: 'The run ended before it answered. This is the last output its code printed; check it before relying on it.' }),
      el('pre', { className: 'partial-text', text: h.partial.text }),
    ]);
  }
  return null;
}

function costStat(ctx: RenderContext, h: RunHeaderView): HTMLElement {
  const t = h.totals;
  const cost = totalsCostText(t, h.pricing.rootLocal && h.pricing.subLocal);
  const set = t.costUnknown
    ? actionButton('Set a price…', () => ctx.bridge.post({ type: 'setPrice', ...(h.pricing.unpriced.length === 1 ? { model: h.pricing.unpriced[0] } : {}) }), {
        title: h.pricing.unpriced.length ? `No price is known for ${h.pricing.unpriced.join(', ')}: set one (rlm.prices) for the next runs` : 'Set a price (rlm.prices) for the next runs',
        testId: 'set-price',
        focusKey: 'set-price',
      })
    : null;
  if (set) set.classList.add('set-price');
  return stat('Cost', el('span', { className: t.costUnknown ? 'cost-unknown' : '', text: cost, attrs: { 'data-testid': 'cost' } }), set);
}

/** What caching did, beside the cost, only when it did something: "12k cached · saved $0.04". */
function cacheStat(h: RunHeaderView): HTMLElement | null {
  const text = cacheText(h.totals);
  if (!text) return null;
  const writes = h.totals.cacheWriteTokens ? ` ${formatTokenCount(h.totals.cacheWriteTokens)} prompt tokens were written to the cache.` : '';
  const title = `Prompt tokens read from the providers' caches are billed at their cache rate; sub-calls answered from the sub-call cache sent nothing. Savings are against full price, for known prices.${writes}`;
  return el('div', { className: 'stat stat-cache', title }, [el('span', { className: 'stat-label', text: 'Cache' }), el('span', { className: 'stat-value', text, attrs: { 'data-testid': 'cache' } })]);
}

export function headerView(ctx: RenderContext, h: RunHeaderView, live: boolean, now: number): HTMLElement {
  const root = el('header', { className: `run-header status-${h.status} tone-${h.outcome.tone}`, attrs: { id: 'run-header' } });
  root.appendChild(outcomeLine(ctx, h));
  // A recorded file still being read is not a running run: no live line, no clock running from its start.
  const running = h.status === 'running' && !h.loading;
  if (running) {
    // The same line, from the same figures, as the status bar, the notification and the chat.
    const line = liveLineOf(h.totals, h.iterations, h.pricing.rootLocal && h.pricing.subLocal, '');
    root.appendChild(el('div', { className: 'live-figures', attrs: { 'data-testid': 'live-figures' }, text: formatLiveLine(line) }));
  }
  if (h.outcome.detail) root.appendChild(el('div', { className: `outcome-detail tone-${h.outcome.tone}`, attrs: { role: h.outcome.tone === 'error' ? 'alert' : 'note' }, text: h.outcome.detail }));
  root.appendChild(el('div', { className: 'question' }, [el('span', { className: 'stat-label', text: 'Question' }), textBlock(ctx, h.question, { kind: 'question', runId: h.runId }, { className: 'question-text' })]));
  // What was asked about, in sight from the first moment (a starting view knows it before its run records it).
  // With the input's original format beside it (a .gz read decompressed, a notebook's cells, a PDF's pages).
  const about = [h.target ? `About ${h.target}` : '', h.inputFormat ?? ''].filter(Boolean).join(' · ');
  if (about && h.depth === 0) root.appendChild(el('div', { className: 'target-line muted small', attrs: { 'data-testid': 'target' }, text: about }));
  const answer = answerSection(ctx, h);
  if (answer) root.appendChild(answer);
  if (h.answer) {
    const references = referencesView(ctx, h);
    if (references) root.appendChild(references);
    if (h.coverage) root.appendChild(coverageStrip(h.coverage));
  }
  const actions = outcomeActions(ctx, h);
  if (actions) root.appendChild(actions);
  const wall = (h.finishedAt ?? now) - h.startedAt;
  root.appendChild(
    el('div', { className: 'stats' }, [
      stat('Root model', h.rootModel ?? '–'),
      stat('Sub model', h.subModel ?? (h.models.join(', ') || '–')),
      stat('Turns', String(h.iterations)),
      stat('Sub-calls', formatCount(h.totals.subCalls)),
      stat('Tokens', `${formatTokenCount(h.totals.inputTokens)} in · ${formatTokenCount(h.totals.outputTokens)} out`),
      costStat(ctx, h),
      cacheStat(h),
      stat('Time', running ? formatDuration(wall) : h.totals.wallTimeMs ? formatDuration(h.totals.wallTimeMs) : h.loading ? '…' : formatDuration(wall)),
    ]),
  );
  if (h.conversation) root.appendChild(conversationView(ctx, h.conversation, h.pricing.rootLocal && h.pricing.subLocal));
  const details = el('details', { className: 'run-details' }, [el('summary', { text: 'Run details and sandbox protections' })]);
  details.appendChild(
    el('div', { className: 'details-body' }, [
      h.target ? el('div', { text: `Target: ${h.target}` }) : null,
      h.contextSummary ? el('div', { text: `Context: ${h.contextSummary}` }) : null,
      el('div', { text: `Source: ${h.source} (${h.format === 'reference' ? 'reference format' : h.format === 'live' ? 'live run' : 'RLM trajectory'})` }),
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
  const counts = p.probes.length ? ` · ${held} of ${plural(p.probes.length, 'probe')} held` : '';
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
