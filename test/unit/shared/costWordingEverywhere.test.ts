// One cost wording everywhere a run's cost is shown (issue 31, item 6): the chat footer, the status
// bar / notification / sidebar live line, the trajectory view's header figures, the .md and .ipynb
// exports, and the CLI's progress line and `rlm show`. Each surface is rendered for the same runs (on a
// local server, with an unknown price, paid by the plan, priced, and before any call) and must say
// "local (no charge)", "price unknown", "included in your plan", the amount, or "no cost yet"; never
// "$0.00" for a run that was not priced at zero. A scan of the sources then checks that no other code
// formats a run's cost on its own.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import type { EventRecord } from '../../../src/core/trajectory/events';
import { toNotebook } from '../../../src/core/trajectory/exportIpynb';
import { toMarkdown } from '../../../src/core/trajectory/exportMarkdown';
import { TreeBuilder } from '../../../src/core/trajectory/treeBuilder';
import type { RunNode } from '../../../src/core/trajectory/treeTypes';
import { ProgressLine } from '../../../src/cli/support/progressLine';
import { totalsCostText } from '../../../src/shared/text/costText';
import { formatLiveLine, liveLineOf } from '../../../src/shared/text/liveLine';
import { footerMarkdown } from '../../../src/vscode/chat/chatEnding';
import { headerView } from '../../../src/vscode/trajectory/runHeaderProjection';
import { progressOf } from '../../../src/vscode/run/runProgress';
import { syntheticEvents } from '../../fixtures/trajectories/generate';

type Pricing = 'local' | 'unknown' | 'plan' | 'priced';

const EXPECTED: Record<Pricing, RegExp> = {
  local: /local \(no charge\)/,
  unknown: /price unknown/,
  plan: /included in your plan/,
  priced: /\$0\.0\d+/,
};

/** The synthetic run's events, re-priced: on a local server, with no price, on the plan, or as generated. */
function records(pricing: Pricing, opts: { calls: boolean } = { calls: true }): EventRecord[] {
  const events = [...syntheticEvents({ cells: 2, subCallsPerCell: 1, childEvery: 0 })];
  return events
    .filter((e) => opts.calls || !['model.output', 'subcall.started', 'subcall.finished', 'cell.started', 'cell.finished', 'turn.started'].includes(e.type))
    .map((e) => {
      const copy = structuredClone(e) as EventRecord & { config?: { root: { baseUrl?: string }; sub: { baseUrl?: string } }; usage?: { costUsd: number | null; includedInPlan?: true } };
      if (copy.type === 'run.started' && copy.config) {
        copy.config.root.baseUrl = pricing === 'local' ? 'http://127.0.0.1:8080/v1' : 'https://api.example.com/v1';
        copy.config.sub.baseUrl = pricing === 'local' ? 'http://192.168.1.20:11434/v1' : 'https://api.example.com/v1';
      }
      if (copy.usage) {
        if (pricing === 'local' || pricing === 'plan') copy.usage.costUsd = 0;
        if (pricing === 'unknown') copy.usage.costUsd = null;
        if (pricing === 'plan') copy.usage.includedInPlan = true;
      }
      return copy;
    });
}

function tree(list: EventRecord[]): RunNode {
  const b = new TreeBuilder();
  for (const r of list) b.apply(r);
  return b.tree!;
}

/** Every surface's rendering of a run's cost, by name. */
function surfaces(run: RunNode, list: EventRecord[]): Record<string, string> {
  const progress = progressOf(run, 'x');
  const header = headerView(run, { source: 's', format: 'rlm', problems: { count: 0, first: [] } });
  const cli = new ProgressLine({ write: () => undefined }, 0, () => 0);
  for (const r of list) cli.update(r);
  return {
    'chat footer': footerMarkdown(2, progress, 'm'),
    'status bar / notification / sidebar live line': formatLiveLine(progress),
    'view header': totalsCostText(header.totals, header.pricing.rootLocal && header.pricing.subLocal),
    'view header live line': formatLiveLine(liveLineOf(header.totals, header.iterations, header.pricing.rootLocal && header.pricing.subLocal, '')),
    'markdown export': toMarkdown(run),
    'ipynb export': JSON.stringify(toNotebook(run)),
    'CLI progress line': cli.text(),
  };
}

for (const pricing of ['local', 'unknown', 'plan', 'priced'] as const) {
  test(`a ${pricing} run's cost reads the same on every surface`, () => {
    const list = records(pricing);
    for (const [surface, text] of Object.entries(surfaces(tree(list), list))) {
      assert.match(text, EXPECTED[pricing], `${surface}: ${text.slice(0, 400)}`);
      assert.doesNotMatch(text, /\$0\.00\b/, `${surface} shows $0.00`);
      assert.doesNotMatch(text, /cost unknown/, `${surface} uses the old wording`);
    }
  });
}

test('before any call, a hosted run reads "no cost yet" on every surface, never "$0.00"', () => {
  const list = records('priced', { calls: false }).filter((r) => r.type !== 'run.finished');
  for (const [surface, text] of Object.entries(surfaces(tree(list), list))) {
    assert.match(text, /no cost yet/, `${surface}: ${text.slice(0, 400)}`);
    assert.doesNotMatch(text, /\$0\.00\b/, `${surface} shows $0.00`);
  }
});

/** Source files under `dir` (recursively). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

test('no code outside src/shared/text/costText.ts words a run\'s cost itself', () => {
  const root = join(import.meta.dirname, '../../..');
  const offenders: string[] = [];
  for (const file of [...sources(join(root, 'src')), ...sources(join(root, 'webview'))]) {
    const rel = relative(root, file);
    if (rel === join('src', 'shared', 'text', 'costText.ts')) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        // formatCost prints amounts (a saving, an estimate); a run's, turn's or call's cost goes through costText.
        if (/formatCost\([^)]*costUsd/.test(line) || /['"`]\$0\.00['"`]/.test(line) || /includedInPlan\s*\?\s*['"`]/.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(offenders, []);
});
