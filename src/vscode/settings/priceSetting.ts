// "Set a price…": asks for a model's input and output price and saves it in rlm.prices (user
// settings: a price belongs to an account, not to a workspace). Offered wherever a cost reads
// "price unknown".
import * as vscode from 'vscode';
import { parsePriceInput } from './priceInput';
import type { PriceSettingEntry } from './rlmSettings';

async function pickModel(models: string[]): Promise<string | undefined> {
  if (models.length === 1) return models[0];
  const other = 'Another model…';
  const picked = models.length ? await vscode.window.showQuickPick([...models, other], { title: 'RLM: Set a price for which model?' }) : other;
  if (picked !== other) return picked;
  const typed = await vscode.window.showInputBox({ title: 'RLM: Set a price', prompt: 'The model id, as the server names it (for example gpt-4o-mini)', ignoreFocusOut: true });
  return typed?.trim() || undefined;
}

/** Resolves true when a price was saved. */
export async function promptForPrice(models: string[], preselected?: string): Promise<boolean> {
  const model = preselected ?? (await pickModel(models));
  if (!model) return false;
  const config = vscode.workspace.getConfiguration('rlm');
  const current = config.get<Record<string, PriceSettingEntry>>('prices') ?? {};
  const existing = current[model];
  const typed = await vscode.window.showInputBox({
    title: `RLM: Price of ${model}`,
    prompt: 'US dollars per million tokens: input, then output. Runs started from now on use it.',
    placeHolder: '0.15, 0.60',
    ...(existing ? { value: `${existing.input}, ${existing.output}` } : {}),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const parsed = parsePriceInput(value);
      return 'problem' in parsed ? parsed.problem : undefined;
    },
  });
  if (typed === undefined) return false;
  const parsed = parsePriceInput(typed);
  if ('problem' in parsed) return false;
  await config.update('prices', { ...current, [model]: parsed }, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`RLM: ${model} now costs $${parsed.input} per million input tokens and $${parsed.output} per million output tokens, from the next run on.`);
  return true;
}

/** Opens the Settings editor on one rlm.* setting. */
export async function openRlmSetting(setting: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', setting);
}
