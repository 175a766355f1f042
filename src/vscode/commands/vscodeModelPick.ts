// The "VS Code language models" choice of "Configure models…": lists the models VS Code offers
// (Copilot's, or another extension's) and saves the picked one as rlm.root.provider "vscode".
import * as vscode from 'vscode';
import { describeLanguageModel } from '../models/languageModelClient';
import type { RlmServices } from '../rlmServices';
import type { ModelSetting } from '../settings/rlmSettings';

/** Resolves true when a model was saved. */
export async function pickVscodeModel(services: RlmServices, current: ModelSetting, updateSetting: (key: string, value: string) => Promise<void>): Promise<boolean> {
  const models = await vscode.lm.selectChatModels();
  if (models.length === 0) {
    const install = 'Install GitHub Copilot Chat';
    const choice = await vscode.window.showWarningMessage(
      'VS Code offers no language model yet. Install and sign in to GitHub Copilot Chat, or another extension that provides models, then choose this again.',
      install,
    );
    if (choice === install) await vscode.commands.executeCommand('workbench.extensions.search', 'GitHub.copilot-chat');
    return false;
  }
  const picked = await vscode.window.showQuickPick(
    models.map((m) => ({
      label: m.name,
      description: `${m.vendor} · ${m.family}`,
      detail: `${m.id}${m.maxInputTokens ? ` · ${m.maxInputTokens.toLocaleString('en-US')} input tokens` : ''}${current.provider === 'vscode' && current.model === m.id ? ' · current' : ''}`,
      id: m.id,
      model: m,
    })),
    { title: 'RLM: VS Code language model for the root', placeHolder: 'Which model writes the code? Sub-calls use it too unless rlm.sub.model is set.', ignoreFocusOut: true },
  );
  if (!picked) return false;
  await updateSetting('root.provider', 'vscode');
  await updateSetting('root.baseUrl', '');
  await updateSetting('root.model', picked.id);
  services.log.info(`Root model set to the VS Code language model ${describeLanguageModel(picked.model)}`);
  return true;
}
