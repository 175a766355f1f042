// The chat's and the trajectory view's pages, as the extension builds them, start in real Chromium
// under their CSP even when not one of their files can be loaded: they carry their own script and
// stylesheet. In code-server, a webview restored beside others (a window reload) could come up with
// no working service worker, and every file it asked for failed (net::ERR_NAME_NOT_RESOLVED); the
// chat then stayed at "Loading RLM…" and a trajectory view stayed blank. The chat page on its own
// also shows that a question sent before the host's first state is kept and sent when it comes.
// Needs `npm run build`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { syntheticEvents } from '../../../fixtures/trajectories/generate';
import { buildRun } from '../../../unit/webview/trajectory/runFixtures';
import type { ChatTarget, SidebarState } from '../../../../src/shared/sidebarState';
import { sidebarHtml } from '../../../../src/vscode/sidebar/sidebarHtml';
import { trajectoryHtml } from '../../../../src/vscode/trajectory/trajectoryHtml';
import { TrajectorySession } from '../../../../src/vscode/trajectory/trajectorySession';
import { WebviewAssets } from '../../../../src/vscode/webviews/webviewAssets';
import { launchChromium } from '../../harness/chromium';
import { repoRoot } from '../../harness/outputPaths';

// Where VS Code's webviews ask for the extension's files, and what webview.cspSource allows.
const ORIGIN = 'https://file+.vscode-resource.vscode-cdn.net';
const CSP_SOURCE = 'https://*.vscode-cdn.net';
const NONCE = 'offlineTestNonce7';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Opens `html` as a webview page whose every file request fails, as with no service worker. */
async function openOffline(html: string): Promise<{ page: Page; failed: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const failed: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.exposeFunction('__cspViolation', (v: string) => void errors.push(`CSP: ${v}`));
  // A string, not a function: the test's compiler would wrap a function in helpers the page lacks.
  await page.addInitScript(`
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation(e.violatedDirective + ' ' + e.blockedURI));
    window.__posts = [];
    window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posts.push(m), getState: () => undefined, setState: () => undefined });
  `);
  await page.route(`${ORIGIN}/**`, (route) => {
    failed.push(new URL(route.request().url()).pathname.split('/').pop() ?? '');
    return route.abort('namenotresolved');
  });
  await page.route('http://rlm.test/page.html', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
  await page.goto('http://rlm.test/page.html');
  return { page, failed, errors };
}

const assets = new WebviewAssets(repoRoot);

function chatHtml(): string {
  return sidebarHtml({
    cspSource: CSP_SOURCE,
    nonce: NONCE,
    scriptUri: `${ORIGIN}/dist/webview/sidebar.js`,
    codiconCssUri: `${ORIGIN}/dist/webview/codicon.css`,
    styleUri: `${ORIGIN}/media/sidebar.css`,
    scriptText: assets.text('dist', 'webview', 'sidebar.js'),
    styleText: assets.text('media', 'sidebar.css'),
  });
}

function chatState(overrides: Partial<SidebarState>): SidebarState {
  const file: ChatTarget = { kind: 'file', label: 'src/retry.ts', uri: 'file:///w/src/retry.ts' };
  return { conversationId: 'c1', entries: [], targets: [{ kind: 'workspace', label: 'Workspace' }, file], selectedTarget: file, busy: false, trusted: true, modelLabel: 'fake-model', history: { query: '', items: [], loading: false }, tab: 'chat', ...overrides };
}

async function posted(page: Page, type: string): Promise<Array<Record<string, unknown>>> {
  return page.evaluate((t) => (window as unknown as { __posts: Array<{ type: string }> }).__posts.filter((m) => m.type === t), type);
}

test('the chat page starts with every file failing: its question box, with its own styles', async () => {
  const { page, failed, errors } = await openOffline(chatHtml());
  try {
    await page.locator('[data-testid="question"]').waitFor({ state: 'attached', timeout: 10_000 });
    assert.equal(await page.locator('p.loading').count(), 0, 'no longer "Loading RLM…"');
    assert.ok(!failed.includes('sidebar.js') && !failed.includes('sidebar.css'), `asked for files it carries: ${failed.join(', ')}`);
    assert.ok(failed.includes('codicon.css'), 'the icons still come as a file (vscode-elements finds them by the link)');
    // sidebar.css lays the composer out as a form block; without it the form would be inline-level.
    assert.notEqual(await page.locator('form.composer').evaluate((e) => getComputedStyle(e).display), 'inline');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

// The view's focus command puts the caret in the question box as the page starts; on a loaded machine
// a person typed and pressed Enter before the host's state came, and the question went nowhere.
test('a question sent before the host\'s first state is kept, then sent to the target the state selects', async () => {
  const { page, errors } = await openOffline(chatHtml());
  try {
    const box = page.locator('[data-testid="question"] textarea');
    await box.waitFor({ timeout: 10_000 });
    await box.focus();
    await page.keyboard.type('Where is withRetry?');
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted(page, 'chat.ask'), [], 'nothing to send to yet');
    assert.equal(await box.inputValue(), 'Where is withRetry?', 'the question stays in the box meanwhile');
    await page.evaluate((state) => window.postMessage({ type: 'lifecycle.state', state }, '*'), chatState({ draft: { id: 1, question: 'an older draft' } }));
    await page.waitForFunction(() => (window as unknown as { __posts: Array<{ type: string }> }).__posts.some((m) => m.type === 'chat.ask'), undefined, { timeout: 5_000 });
    assert.deepEqual(await posted(page, 'chat.ask'), [{ type: 'chat.ask', question: 'Where is withRetry?', target: chatState({}).selectedTarget }]);
    assert.equal(await box.inputValue(), '', 'sent, so the box is empty');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('a question sent early into an untrusted workspace stays in the box, unsent', async () => {
  const { page, errors } = await openOffline(chatHtml());
  try {
    const box = page.locator('[data-testid="question"] textarea');
    await box.waitFor({ timeout: 10_000 });
    await box.focus();
    await page.keyboard.type('Anything?');
    await page.keyboard.press('Enter');
    await page.evaluate((state) => window.postMessage({ type: 'lifecycle.state', state }, '*'), chatState({ trusted: false }));
    await page.locator('.banner.warning').waitFor({ timeout: 5_000 });
    assert.deepEqual(await posted(page, 'chat.ask'), []);
    assert.equal(await box.inputValue(), 'Anything?');
    assert.match((await page.locator('[data-testid="question"]').getAttribute('title')) ?? '', /not trusted/);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('the trajectory page starts with every file failing and shows its run', async () => {
  const run = buildRun([...syntheticEvents({ cells: 3, subCallsPerCell: 1 })]);
  const session = new TrajectorySession({
    post: () => undefined,
    root: () => run,
    info: () => ({ source: 'offline.rlm.jsonl', format: 'rlm', problems: { count: 0, first: [] } }),
    isLive: () => false,
    actions: { exportAs: async () => undefined, copyText: async () => undefined },
  });
  const html = trajectoryHtml({
    cspSource: CSP_SOURCE,
    nonce: NONCE,
    scriptUri: `${ORIGIN}/dist/webview/trajectory.js`,
    styleUri: `${ORIGIN}/media/trajectory.css`,
    codiconUri: `${ORIGIN}/dist/webview/codicon.css`,
    scriptText: assets.text('dist', 'webview', 'trajectory.js'),
    styleText: assets.text('media', 'trajectory.css'),
    title: 'offline',
    initial: session.embeddedState(),
  });
  const { page, failed, errors } = await openOffline(html);
  try {
    await page.locator('#run-header').waitFor({ timeout: 10_000 });
    assert.match(await page.locator('#run-header').innerText(), new RegExp(run.question.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.ok(!failed.includes('trajectory.js') && !failed.includes('trajectory.css'), `asked for files it carries: ${failed.join(', ')}`);
    assert.equal(await page.locator('#run-header').evaluate((e) => getComputedStyle(e).display), 'block');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
