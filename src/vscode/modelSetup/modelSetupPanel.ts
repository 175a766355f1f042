// "RLM: Configure models...": root model, sub model and a cost limit on one screen. Model names are
// offered from the server's own list when it answers (with their price), typed by hand otherwise;
// Test connection tries both models; keys go to secret storage and never back to the page.
import * as vscode from 'vscode';
import { listModels } from '../../core/models/modelCatalog';
import type { ListedModel, ModelRole, RoleDraft, SetupDraft, SetupToHost, SetupToPage } from '../../shared/modelSetupProtocol';
import { describeError } from '../errors/describeError';
import type { RlmServices } from '../services/rlmServices';
import { modelConfigFor } from '../models/modelConfig';
import { readSettings } from '../settings/readSettings';
import type { ModelSetting } from '../settings/rlmSettings';
import { newNonce, webviewPage } from '../webviews/webviewSecurity';
import { webviewAssets } from '../webviews/webviewAssets';
import { RequestGate } from '../models/requestGate';
import { listVscodeModels } from '../models/vscodeModelListing';
import { draftFromSettings, listedPriceLabel, resolveRole, savedSetupLogLines, settingsFor, setupEndpoints } from './setupDraft';
import type { ResolvedRole } from './setupDraft';

const TEST_TIMEOUT_MS = 30_000;
const ROLE_NAMES: Record<ModelRole, string> = { root: 'root model', sub: 'sub model' };

let current: vscode.WebviewPanel | undefined;

/** Writes a setting where it takes effect: the workspace when the workspace already sets it, else the user. */
async function updateSetting(key: string, value: string | number): Promise<void> {
  const config = vscode.workspace.getConfiguration('rlm');
  const inspected = config.inspect(key);
  const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update(key, value, target);
}

export function openModelSetup(services: RlmServices): vscode.WebviewPanel {
  if (current) {
    current.reveal();
    return current;
  }
  const dist = vscode.Uri.joinPath(services.context.extensionUri, 'dist', 'webview');
  const media = vscode.Uri.joinPath(services.context.extensionUri, 'media');
  const panel = vscode.window.createWebviewPanel('rlm.modelSetup', 'RLM: Models', vscode.ViewColumn.Active, {
    enableScripts: true,
    retainContextWhenHidden: true,
    localResourceRoots: [dist, media],
  });
  current = panel;
  panel.onDidDispose(() => {
    if (current === panel) current = undefined;
  });
  // Rebuilt when the page loads, with the models VS Code offers at that moment.
  let endpoints = setupEndpoints();
  const post = (message: SetupToPage): void => void panel.webview.postMessage(message);

  const keyFor = async (role: ResolvedRole, typed: string): Promise<string | undefined> => typed.trim() || (await services.keys.get(role.setting.provider, role.setting.baseUrl));

  const roles = (draft: SetupDraft): Array<[ModelRole, RoleDraft]> => [['root', draft.root], ...(draft.sub ? [['sub', draft.sub] as [ModelRole, RoleDraft]] : [])];

  const testOne = async (role: ModelRole, draft: RoleDraft): Promise<boolean> => {
    const resolved = resolveRole(draft, endpoints, ROLE_NAMES[role]);
    if (typeof resolved === 'string') {
      post({ type: 'testResult', role, ok: false, message: resolved });
      return false;
    }
    try {
      const settings = readSettings();
      // A VS Code model has no key and no endpoint: it is found by id or family among those VS Code offers.
      const client =
        resolved.setting.provider === 'vscode'
          ? await services.vscodeModel(resolved.setting.model, new RequestGate(1))
          : (await services.engine()).createModelClient(await modelConfigFor(resolved.setting, async () => keyFor(resolved, draft.apiKey), settings.responseLimits));
      const completion = await client.complete([{ role: 'user', content: 'Reply with the single word OK.' }], { maxTokens: 8, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
      post({ type: 'testResult', role, ok: true, message: `Connected to ${completion.model || resolved.setting.model} in ${completion.latencyMs} ms.` });
      return true;
    } catch (error) {
      services.log.error(`Model setup: testing the ${ROLE_NAMES[role]} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      post({ type: 'testResult', role, ok: false, message: describeError(error).text });
      return false;
    }
  };

  const save = async (draft: SetupDraft): Promise<boolean> => {
    const resolved: Partial<Record<ModelRole, ResolvedRole>> = {};
    for (const [role, roleDraft] of roles(draft)) {
      const r = resolveRole(roleDraft, endpoints, ROLE_NAMES[role]);
      if (typeof r === 'string') {
        post({ type: 'problem', message: r });
        return false;
      }
      if (r.option.needsKey && !(await keyFor(r, roleDraft.apiKey))) {
        post({ type: 'problem', message: `${r.option.label} needs an API key for the ${ROLE_NAMES[role]}.` });
        return false;
      }
      resolved[role] = r;
    }
    const root = resolved.root as ResolvedRole;
    for (const [role, roleDraft] of roles(draft)) {
      const r = resolved[role];
      if (r && r.option.takesKey && roleDraft.apiKey.trim()) await services.keys.set(r.setting.provider, r.setting.baseUrl, roleDraft.apiKey.trim());
    }
    for (const [key, value] of settingsFor(root.setting, resolved.sub?.setting, draft.maxCostUsd)) await updateSetting(key, value);
    const sub: ModelSetting | undefined = resolved.sub?.setting;
    const summary = sub ? `${root.setting.model} writes the code, ${sub.model} answers sub-calls` : `${root.setting.model} writes the code and answers sub-calls`;
    for (const line of savedSetupLogLines(root.setting, sub, draft.maxCostUsd)) services.log.info(line);
    post({ type: 'saved', message: `Saved: ${summary}.` });
    return true;
  };

  const receive = async (message: SetupToHost): Promise<void> => {
    switch (message.type) {
      case 'ready': {
        const listed = await listVscodeModels(services.lm);
        endpoints = setupEndpoints(listed.ok ? listed.models.map((m) => m.id) : []);
        const settings = readSettings();
        const draft = draftFromSettings(settings.root, settings.sub, settings.limits.maxCostUsd, endpoints);
        const stored = async (d: RoleDraft | undefined): Promise<boolean> => {
          const r = d ? resolveRole(d, endpoints, '') : undefined;
          return r !== undefined && typeof r !== 'string' && (await services.keys.get(r.setting.provider, r.setting.baseUrl)) !== undefined;
        };
        post({ type: 'init', endpoints, draft, storedKeys: { root: await stored(draft.root), sub: await stored(draft.sub) } });
        return;
      }
      case 'listModels': {
        const answer = (models: ListedModel[], error?: string): void => post({ type: 'models', role: message.role, requestId: message.requestId, models, ...(error ? { error } : {}) });
        const option = endpoints.find((e) => e.id === message.draft.endpointId);
        if (!option) return;
        if (option.provider === 'vscode') {
          const offered = await listVscodeModels(services.lm);
          answer(offered.ok ? offered.models : [], offered.ok ? undefined : offered.reason);
          return;
        }
        const baseUrl = option.editableUrl ? message.draft.baseUrl.trim() : option.baseUrl;
        if (option.editableUrl && baseUrl === '') {
          answer([], 'Enter the server URL to see its models.');
          return;
        }
        const key = message.draft.apiKey.trim() || (await services.keys.get(option.provider as ModelSetting['provider'], baseUrl));
        if (!key && option.needsKey) {
          // Not a failure the user caused: the server will not list models without a key, so say what to do.
          post({ type: 'models', role: message.role, requestId: message.requestId, models: [], hint: `Enter the API key to see ${option.label}'s models, or type the model name.` });
          return;
        }
        const listed = await listModels({ provider: option.provider as ModelSetting['provider'], baseUrl, ...(key ? { apiKey: key } : {}) });
        if (!listed.ok) {
          answer([], `${listed.reason} Type the model name instead.`);
          return;
        }
        const prices = readSettings().prices;
        answer(listed.models.map((m) => ({ id: m.id, price: listedPriceLabel(m.id, m.pricing, baseUrl, prices) })));
        return;
      }
      case 'test':
        for (const [role, draft] of roles(message.draft)) await testOne(role, draft);
        return;
      case 'save':
        if ((await save(message.draft)) && message.thenTest) for (const [role, draft] of roles(message.draft)) await testOne(role, draft);
        return;
    }
  };
  panel.webview.onDidReceiveMessage((raw: SetupToHost) => {
    receive(raw).catch((error: unknown) => post({ type: 'problem', message: describeError(error).text }));
  });
  const assets = webviewAssets(services.context.extensionUri.fsPath);
  panel.webview.html = webviewPage({
    cspSource: panel.webview.cspSource,
    nonce: newNonce(),
    title: 'RLM: Models',
    stylesheets: [{ href: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'modelSetup.css')).toString(), text: assets.text('media', 'modelSetup.css') }],
    bodyHtml: '<main id="app" aria-live="polite"><p>Loading…</p></main>\n',
    scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'modelSetup.js')).toString(),
    scriptText: assets.text('dist', 'webview', 'modelSetup.js'),
  });
  return panel;
}
