// Reads the rlm.* settings through VS Code into the plain RlmSettings object.
import * as vscode from 'vscode';
import { readRlmSettings } from './rlmSettings';
import type { RlmSettings } from './rlmSettings';

export function readSettings(scope?: vscode.ConfigurationScope): RlmSettings {
  const config = vscode.workspace.getConfiguration('rlm', scope);
  return readRlmSettings((key) => config.get(key));
}
