// "Configure models..." (opens the setup screen), "Set API key...", "Clear API keys" and "Test connection".
import * as vscode from 'vscode';
import { describeError } from '../errors/describeError';
import { NoModelConfiguredError } from '../errors/extensionErrors';
import { MODEL_PRESETS } from '../models/modelPresets';
import { openModelSetup } from '../modelSetup/modelSetupPanel';
import { settingForSlot } from '../models/keySlotMatch';
import { describeKeySlot } from '../models/secretKeys';
import type { RlmServices } from '../services/rlmServices';
import { modelConfigFor } from '../models/modelConfig';
import { RequestGate } from '../models/requestGate';
import { readSettings } from '../settings/readSettings';
import type { ModelSetting } from '../settings/rlmSettings';
import { isModelConfigured } from '../settings/rlmSettings';
import { showUserMessage } from '../errors/userMessages';
import { registerSafeCommand } from './commandSupport';

const TEST_TIMEOUT_MS = 30_000;

async function askForKey(services: RlmServices, setting: Pick<ModelSetting, 'provider' | 'baseUrl'>, required: boolean): Promise<boolean> {
  const slot = describeKeySlot(setting.provider, setting.baseUrl);
  const key = await vscode.window.showInputBox({
    title: `API key for ${slot}`,
    prompt: `Stored in VS Code's secret storage, never in settings, logs or trajectories.${required ? '' : ' Leave empty if the server needs no key.'}`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (required && v.trim() === '' ? 'This endpoint needs a key.' : undefined),
  });
  if (key === undefined || key.trim() === '') return false;
  await services.keys.set(setting.provider, setting.baseUrl, key);
  services.log.info(`API key stored for ${slot}`);
  return true;
}

/** The one-screen setup of the root model, the sub model and the cost limit. */
export async function configureModels(services: RlmServices): Promise<void> {
  openModelSetup(services);
}

/** Makes one tiny request to the root model (and the sub model if different) and reports the outcome. */
export async function testConnection(services: RlmServices): Promise<boolean> {
  const settings = readSettings();
  if (!isModelConfigured(settings)) {
    await showUserMessage(describeError(new NoModelConfiguredError()));
    return false;
  }
  const targets = [settings.root, ...(settings.sub ? [settings.sub] : [])];
  for (const setting of targets) {
    const ok = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `RLM: testing ${setting.model} at ${setting.baseUrl || setting.provider}` },
      async () => {
        try {
          const client =
            setting.provider === 'vscode'
              ? await services.vscodeModel(setting.model, new RequestGate(1))
              : (await services.engine()).createModelClient(await modelConfigFor(setting, (s) => services.keys.get(s.provider, s.baseUrl), settings.responseLimits));
          const completion = await client.complete([{ role: 'user', content: 'Reply with the single word OK.' }], { maxTokens: 8, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
          void vscode.window.showInformationMessage(`RLM: connected to ${completion.model || setting.model} at ${client.endpoint} in ${completion.latencyMs} ms.`);
          return true;
        } catch (error) {
          services.log.error(`Test connection to ${setting.model} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          void showUserMessage(describeError(error));
          return false;
        }
      },
    );
    if (!ok) return false;
  }
  return true;
}

/** `slot`: the server a failure named ("Set API key..." on its message): its key box opens at once. */
export async function setApiKey(services: RlmServices, slot?: unknown): Promise<void> {
  const settings = readSettings();
  const named = settingForSlot(slot, [settings.root, settings.sub]);
  if (named) {
    const label = describeKeySlot(named.provider, named.baseUrl);
    if (await askForKey(services, named, true)) void vscode.window.showInformationMessage(`RLM: the key for ${label} is stored in secret storage.`);
    return;
  }
  const slots: Array<{ label: string; description: string; setting: Pick<ModelSetting, 'provider' | 'baseUrl'> }> = [];
  const seen = new Set<string>();
  for (const [role, setting] of [['root', settings.root], ['sub', settings.sub]] as const) {
    if (!setting) continue;
    const slot = describeKeySlot(setting.provider, setting.baseUrl);
    if (seen.has(slot)) continue;
    seen.add(slot);
    slots.push({ label: slot, description: `${role} model ${setting.model}`, setting });
  }
  for (const preset of MODEL_PRESETS.filter((p) => p.needsKey)) {
    const slot = describeKeySlot(preset.provider, preset.baseUrl);
    if (!seen.has(slot)) slots.push({ label: slot, description: preset.label, setting: preset });
    seen.add(slot);
  }
  const picked = await vscode.window.showQuickPick(slots, { title: 'RLM: Set API key for...', ignoreFocusOut: true });
  if (!picked) return;
  if (await askForKey(services, picked.setting, true)) void vscode.window.showInformationMessage(`RLM: the key for ${picked.label} is stored in secret storage.`);
}

export async function clearApiKeys(services: RlmServices): Promise<void> {
  const slots = services.keys.storedSlots();
  if (slots.length === 0) {
    void vscode.window.showInformationMessage('RLM has no stored API keys.');
    return;
  }
  const go = await vscode.window.showWarningMessage(`Delete ${slots.length} stored API key${slots.length === 1 ? '' : 's'} from secret storage?`, { modal: true }, 'Delete');
  if (go !== 'Delete') return;
  const count = await services.keys.clearAll();
  services.log.info(`Cleared ${count} API keys`);
  void vscode.window.showInformationMessage(`RLM: deleted ${count} API key${count === 1 ? '' : 's'}.`);
}

export function registerModelCommands(services: RlmServices): vscode.Disposable[] {
  return [
    registerSafeCommand(services, 'rlm.configureModels', () => configureModels(services)),
    registerSafeCommand(services, 'rlm.setApiKey', (slot?: unknown) => setApiKey(services, slot)),
    registerSafeCommand(services, 'rlm.clearApiKeys', () => clearApiKeys(services)),
    registerSafeCommand(services, 'rlm.testConnection', () => testConnection(services)),
  ];
}
