import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EntryFollower } from '../../../src/vscode/sidebar/entryFollower';
import { sidebarHtml } from '../../../src/vscode/sidebar/sidebarHtml';
import type { ChatEntry } from '../../../src/shared/sidebarState';
import { initialProgress } from '../../../src/vscode/run/runProgress';
import type { RunProgress } from '../../../src/vscode/run/runProgress';

test('the sidebar HTML has a strict CSP with a nonce on its only script, and no inline code', () => {
  const html = sidebarHtml({ cspSource: 'vscode-resource:', scriptUri: 'vscode-resource:/dist/webview/sidebar.js', codiconCssUri: 'c.css', styleUri: 's.css', nonce: 'abc123' });
  const csp = /content="([^"]+)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc123'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.match(html, /<script nonce="abc123" src="vscode-resource:\/dist\/webview\/sidebar\.js"><\/script>/);
  const hostile = sidebarHtml({ cspSource: 'x', scriptUri: 'a"><script>alert(1)</script>', codiconCssUri: 'c', styleUri: 's', nonce: 'n' });
  assert.equal(hostile.match(/<script/g)?.length, 1, 'a URI cannot close its attribute and add markup');
  const other = sidebarHtml({ cspSource: 'x', scriptUri: 'y', codiconCssUri: 'c', styleUri: 's' });
  assert.notEqual(/nonce-([A-Za-z0-9]+)/.exec(other)?.[1], /nonce-([A-Za-z0-9]+)/.exec(sidebarHtml({ cspSource: 'x', scriptUri: 'y', codiconCssUri: 'c', styleUri: 's' }))?.[1], 'a fresh nonce per render');
});

test('the entry follower updates on the run\'s tick only, and sends the last state on dispose', () => {
  const ticks = new Set<() => void>();
  const progress: RunProgress = { ...initialProgress(), turn: 1, streamingText: 'x'.repeat(5000) };
  const run = { progress, onTick: (l: () => void) => (ticks.add(l), () => ticks.delete(l)) };
  const patches: Array<Partial<ChatEntry>> = [];
  const follower = new EntryFollower(run, (p) => patches.push(p));
  assert.equal(patches.length, 0, 'nothing is sent between ticks');
  ticks.forEach((t) => t());
  assert.equal(patches.length, 1, 'one tick gives one update');
  assert.equal(patches[0]?.streamingText?.length, 1200, 'only the tail of the streamed text is sent');
  run.progress.turn = 3;
  follower.dispose();
  assert.equal(patches.at(-1)?.live?.turn, 3);
  assert.equal(ticks.size, 0);
});

