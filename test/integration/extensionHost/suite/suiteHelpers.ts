// Helpers shared by the extension-host suite files (not itself a test file: no .test.ts suffix).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { RlmExtensionApi } from '../../../../src/vscode/extension';

export const EXTENSION_ID = 'rlm-tools.rlm-vscode';

/** The extension, activated. Fails with the installed extension ids when it is not found. */
export async function activatedExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  if (!extension.isActive) await extension.activate();
  return extension;
}

interface ContributedCommand {
  command: string;
  title: string;
  category?: string;
}

interface ContributedSetting {
  key: string;
  schema: { type?: string | string[]; default?: unknown; description?: string; markdownDescription?: string; enum?: unknown[]; minimum?: number; maximum?: number };
}

interface Manifest {
  contributes?: {
    commands?: ContributedCommand[];
    configuration?: { properties?: Record<string, ContributedSetting['schema']> } | Array<{ properties?: Record<string, ContributedSetting['schema']> }>;
  };
}

/** The manifest VS Code loaded, read at test time so that newly contributed items are covered. */
function manifest(): Manifest {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return extension.packageJSON as Manifest;
}

export function contributedCommands(): ContributedCommand[] {
  return manifest().contributes?.commands ?? [];
}

export function contributedSettings(): ContributedSetting[] {
  const configuration = manifest().contributes?.configuration;
  const sections = Array.isArray(configuration) ? configuration : configuration ? [configuration] : [];
  return sections.flatMap((section) => Object.entries(section.properties ?? {}).map(([key, schema]) => ({ key, schema })));
}

/** The extension's API (its services), activated. */
export async function rlmApi(): Promise<RlmExtensionApi> {
  return (await activatedExtension()).exports as RlmExtensionApi;
}

/** The first workspace folder (the suite's fixture folder). */
export function folderUri(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('no workspace folder');
  return f.uri;
}

/** Sets `rlm.*` settings globally; `undefined` resets one. */
export async function setRlm(values: Record<string, unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration('rlm');
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
}

/** One request the fake language model (fakeLanguageModelExtension/) received. */
interface FakeRequest {
  messages: Array<{ role: string; text: string }>;
}

/** Every request the fake language model received so far, in order. */
export async function fakeRequests(): Promise<FakeRequest[]> {
  return ((await vscode.commands.executeCommand('rlmTest.languageModelRequests')) as FakeRequest[] | undefined) ?? [];
}

/** Polls `probe` until it returns a value; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The records of a trajectory file. */
export function records(path: string): Array<Record<string, unknown> & { type?: string }> {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown> & { type?: string });
}
