// The one-screen model setup: where each model runs, its key, its name (picked from the server's
// list, with prices, or typed), whether sub-calls use a cheaper model, and a cost limit. Every
// endpoint comes from the host's list; the page knows no provider by name.
import { ListRequests } from './listRequests';
import { copiedListState, modelAfterEndpointChange, modelPlaceholder, subOnTick, testOutcomeStale } from './roleRules';
import type { ListedModel, ModelRole, RoleDraft, SetupDraft, SetupEndpointOption, SetupToHost, SetupToPage } from '../../src/shared/modelSetupProtocol';

interface VsCodeApi {
  postMessage(message: SetupToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;

function h(tag: string, props: Record<string, string | boolean | undefined> = {}, ...children: Array<Node | string | null | undefined>): HTMLElement {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return el;
}

interface RoleForm {
  endpoint: HTMLSelectElement;
  url: HTMLInputElement;
  urlRow: HTMLElement;
  keyRow: HTMLElement;
  key: HTMLInputElement;
  keyHint: HTMLElement;
  model: HTMLInputElement;
  list: HTMLDataListElement;
  listStatus: HTMLElement;
  price: HTMLElement;
  result: HTMLElement;
  listed: ListedModel[];
  /** The fields the shown test outcome was about; a change to any of them clears it. */
  tested?: RoleDraft;
}

let endpoints: SetupEndpointOption[] = [];
const listRequests = new ListRequests();
let storedKeys: Record<ModelRole, boolean> = { root: false, sub: false };
const forms: Partial<Record<ModelRole, RoleForm>> = {};
let subSeparate: HTMLInputElement;
let subSection: HTMLElement;
let maxCost: HTMLInputElement;
let status: HTMLElement;
/** The sub model holds the user's own choice (saved earlier or edited here), not a copy of the root. */
let subIsUsersOwn = false;

function option(id: string): SetupEndpointOption | undefined {
  return endpoints.find((e) => e.id === id);
}

function roleDraft(role: ModelRole): RoleDraft {
  const f = forms[role] as RoleForm;
  return { endpointId: f.endpoint.value, baseUrl: f.url.value, model: f.model.value, apiKey: f.key.value };
}

function draft(): SetupDraft {
  const cost = Number(maxCost.value);
  return { root: roleDraft('root'), ...(subSeparate.checked ? { sub: roleDraft('sub') } : {}), maxCostUsd: Number.isFinite(cost) && cost > 0 ? cost : 0 };
}

function showPrice(role: ModelRole): void {
  const f = forms[role] as RoleForm;
  const listed = f.listed.find((m) => m.id === f.model.value.trim());
  const source = option(f.endpoint.value)?.modelSource ?? 'the server';
  f.price.textContent = listed ? listed.price : f.model.value.trim() && f.listed.length ? `not in ${source}'s list (typed by hand)` : '';
}

function requestModels(role: ModelRole): void {
  const f = forms[role] as RoleForm;
  f.listStatus.textContent = `Asking ${option(f.endpoint.value)?.modelSource ?? 'the server'} for its models…`;
  f.listStatus.className = 'hint';
  api.postMessage({ type: 'listModels', role, requestId: listRequests.next(role), draft: roleDraft(role) });
}

/** Shows the rows and hints of the endpoint the role's select holds. */
function showEndpoint(role: ModelRole, o: SetupEndpointOption, keyStored: boolean): void {
  const f = forms[role] as RoleForm;
  f.urlRow.hidden = !o.editableUrl;
  f.keyRow.hidden = !o.takesKey;
  if (!o.editableUrl) f.url.value = o.baseUrl;
  f.key.placeholder = keyStored ? 'A key is stored (type to replace it)' : o.needsKey ? 'Required: stored in VS Code secret storage' : 'Optional: most local servers need none';
  f.keyHint.textContent = o.description;
}

function showList(role: ModelRole, models: readonly ListedModel[], text: string, bad: boolean): void {
  const f = forms[role] as RoleForm;
  f.listed = [...models];
  f.list.replaceChildren(...models.map((m) => h('option', { value: m.id }, m.label ? `${m.label} · ${m.price}` : m.price)));
  f.model.placeholder = modelPlaceholder(option(f.endpoint.value), models.length);
  f.listStatus.textContent = text;
  f.listStatus.className = bad ? 'hint bad' : 'hint';
  showPrice(role);
}

/** Clears the role's "✓ Connected" / "✗ …" once the fields it was about have changed. */
function dropStaleResult(role: ModelRole): void {
  const f = forms[role] as RoleForm;
  if (!f.tested || !testOutcomeStale(f.tested, roleDraft(role))) return;
  f.tested = undefined;
  f.result.textContent = '';
  f.result.className = 'result';
}

function applyEndpoint(role: ModelRole, changed: boolean): void {
  const f = forms[role] as RoleForm;
  const o = option(f.endpoint.value);
  if (!o) return;
  // An answer still coming for the endpoint left behind is not this one's.
  listRequests.next(role);
  if (changed) {
    // A key typed for the endpoint left behind is that provider's secret: never sent to the new one.
    f.key.value = '';
    f.model.value = modelAfterEndpointChange(o);
  }
  showEndpoint(role, o, (role === 'root' ? storedKeys.root : storedKeys.sub) && !changed);
  showList(role, [], '', false);
  if (o.unavailable) {
    // Known from the page's start; Refresh list asks again (after signing in to Copilot, say).
    f.listStatus.textContent = o.unavailable;
    f.listStatus.className = 'hint bad';
  } else if (!o.editableUrl || f.url.value.trim()) requestModels(role);
  else {
    f.listStatus.textContent = 'Enter the server URL to see its models.';
    f.listStatus.className = 'hint';
  }
}

function roleSection(role: ModelRole, title: string, help: string, value: RoleDraft): HTMLElement {
  const id = (name: string): string => `${role}-${name}`;
  const endpoint = h('select', { id: id('endpoint'), 'data-testid': id('endpoint') }) as HTMLSelectElement;
  for (const e of endpoints) endpoint.append(h('option', { value: e.id, selected: e.id === value.endpointId }, e.label));
  const url = h('input', { id: id('url'), type: 'url', value: value.baseUrl, placeholder: 'http://localhost:8080/v1', 'data-testid': id('url') }) as HTMLInputElement;
  const urlRow = h('div', { class: 'row' }, h('label', { for: id('url') }, 'Server URL'), url);
  const key = h('input', { id: id('key'), type: 'password', autocomplete: 'off', 'data-testid': id('key') }) as HTMLInputElement;
  const keyHint = h('span', { class: 'hint', 'data-testid': id('endpoint-hint') });
  const keyRow = h('div', { class: 'row' }, h('label', { for: id('key') }, 'API key'), key);
  const list = h('datalist', { id: id('models') }) as HTMLDataListElement;
  const model = h('input', { id: id('model'), value: value.model, list: id('models'), placeholder: 'Pick from the list or type a name', 'data-testid': id('model') }) as HTMLInputElement;
  const refresh = h('button', { type: 'button', class: 'secondary', title: 'Ask the server for its models again', 'data-testid': id('refresh') }, 'Refresh list');
  const listStatus = h('div', { class: 'hint', 'data-testid': id('list-status') });
  const price = h('div', { class: 'price', 'data-testid': id('price') });
  const result = h('div', { class: 'result', role: 'status', 'data-testid': id('result') });
  forms[role] = { endpoint, url, urlRow, keyRow, key, keyHint, model, list, listStatus, price, result, listed: [] };
  endpoint.addEventListener('change', () => applyEndpoint(role, true));
  url.addEventListener('change', () => requestModels(role));
  key.addEventListener('change', () => requestModels(role));
  model.addEventListener('input', () => showPrice(role));
  for (const field of [endpoint, url, key, model]) {
    field.addEventListener('input', () => {
      if (role === 'sub') subIsUsersOwn = true;
      dropStaleResult(role);
    });
  }
  refresh.addEventListener('click', () => requestModels(role));
  return h(
    'section',
    { class: 'role', 'aria-labelledby': id('title') },
    h('h2', { id: id('title') }, title),
    h('p', { class: 'help' }, help),
    h('div', { class: 'row' }, h('label', { for: id('endpoint') }, 'Runs at'), endpoint, keyHint),
    urlRow,
    keyRow,
    h('div', { class: 'row' }, h('label', { for: id('model') }, 'Model'), h('div', { class: 'model' }, model, refresh), list),
    h('div', { class: 'row' }, h('span'), h('div', {}, price, listStatus)),
    result,
  );
}

function render(message: Extract<SetupToPage, { type: 'init' }>): void {
  endpoints = message.endpoints;
  storedKeys = message.storedKeys;
  const rootSection = roleSection('root', 'Root model', 'Writes the Python that explores your files, one cell per turn. A capable model pays off here.', message.draft.root);
  subSeparate = h('input', { type: 'checkbox', id: 'sub-separate', checked: message.draft.sub !== undefined, 'data-testid': 'sub-separate' }) as HTMLInputElement;
  subSection = roleSection('sub', 'Sub model', 'Answers the llm_query() calls the code makes over pieces of the input: often dozens per run, so a cheap, fast model is the point of an RLM.', message.draft.sub ?? { ...message.draft.root, apiKey: '' });
  subSection.hidden = !subSeparate.checked;
  subIsUsersOwn = message.draft.sub !== undefined;
  subSeparate.addEventListener('change', () => {
    subSection.hidden = !subSeparate.checked;
    if (subSeparate.checked) startSub();
  });
  maxCost = h('input', { id: 'max-cost', type: 'number', min: '0', step: '0.5', value: String(message.draft.maxCostUsd), 'data-testid': 'max-cost' }) as HTMLInputElement;
  status = h('div', { class: 'status', role: 'status', 'data-testid': 'status' });
  const save = h('button', { type: 'button', 'data-testid': 'save' }, 'Save and test');
  const test = h('button', { type: 'button', class: 'secondary', 'data-testid': 'test' }, 'Test connection');
  save.addEventListener('click', () => {
    status.textContent = 'Saving…';
    markTested();
    api.postMessage({ type: 'save', draft: draft(), thenTest: true });
  });
  test.addEventListener('click', () => {
    // An earlier "Saved" would read as this test's outcome.
    status.textContent = '';
    markTested();
    for (const f of Object.values(forms)) if (f) f.result.textContent = 'Testing…';
    api.postMessage({ type: 'test', draft: draft() });
  });
  app.replaceChildren(
    h('h1', {}, 'RLM models'),
    h('p', { class: 'help' }, 'Your files stay in a local Python sandbox; the models see only what their code prints and the pieces it sends to sub-calls.'),
    rootSection,
    h('div', { class: 'toggle' }, subSeparate, h('label', { for: 'sub-separate' }, 'Use a different, cheaper model for sub-calls')),
    subSection,
    h('section', { class: 'role' }, h('h2', {}, 'Cost limit'), h('div', { class: 'row' }, h('label', { for: 'max-cost' }, 'Stop a run at (USD)'), maxCost, h('span', { class: 'hint' }, '0: no limit. Runs on local servers cost nothing; VS Code\'s models are included in your plan.'))),
    // Kept in view at the bottom, with the outcome beside it, however long the form grows.
    h('div', { class: 'actions' }, save, test, status),
  );
  applyEndpoint('root', false);
  if (subSeparate.checked) applyEndpoint('sub', false);
}

/** Remembers what each role is tested with, so an outcome for values changed since is not shown. */
function markTested(): void {
  for (const role of ['root', 'sub'] as const) {
    const f = forms[role];
    if (f) f.tested = roleDraft(role);
  }
}

/**
 * "Use a different model for sub-calls" ticked: the sub model starts as the root model as the form
 * shows it now (see subOnTick), with the root's model list, and no error the user has not caused.
 */
function startSub(): void {
  const sub = forms.sub as RoleForm;
  if (subIsUsersOwn) {
    applyEndpoint('sub', false);
    return;
  }
  const next = subOnTick(roleDraft('root'), roleDraft('sub'), subIsUsersOwn);
  const o = option(next.endpointId);
  if (!o) return;
  listRequests.next('sub');
  sub.endpoint.value = next.endpointId;
  sub.url.value = next.baseUrl;
  sub.key.value = next.apiKey;
  sub.model.value = next.model;
  sub.tested = undefined;
  sub.result.textContent = '';
  sub.result.className = 'result';
  const root = forms.root as RoleForm;
  showEndpoint('sub', o, false);
  sub.key.placeholder = root.key.placeholder;
  const copied = copiedListState({ models: root.listed.map((m) => m.id), text: root.listStatus.textContent ?? '', bad: root.listStatus.classList.contains('bad') });
  showList('sub', root.listed.filter((m) => copied.models.includes(m.id)), copied.text, copied.bad);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const data = event.data;
  if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') return;
  const message = data as SetupToPage;
  switch (message.type) {
    case 'init':
      render(message);
      return;
    case 'models': {
      const f = forms[message.role];
      if (!f || !listRequests.isCurrent(message.role, message.requestId)) return;
      const source = option(f.endpoint.value)?.modelSource ?? 'the server';
      showList(message.role, message.models, message.error ?? message.hint ?? `${message.models.length} model${message.models.length === 1 ? '' : 's'} listed by ${source}.`, message.error !== undefined);
      return;
    }
    case 'testResult': {
      const f = forms[message.role];
      // Changed since the test was sent: the outcome is about values the form no longer holds.
      if (!f?.tested) return;
      f.result.textContent = `${message.ok ? '✓' : '✗'} ${message.message}`;
      f.result.className = `result ${message.ok ? 'ok' : 'bad'}`;

      return;
    }
    case 'saved':
      status.textContent = message.message;
      status.className = 'status ok';
      return;
    case 'problem':
      status.textContent = message.message;
      status.className = 'status bad';
      return;
  }
});

api.postMessage({ type: 'ready' });
