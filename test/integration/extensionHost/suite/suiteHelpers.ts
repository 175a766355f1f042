// Helpers shared by the extension-host suite files (not itself a test file: no .test.ts suffix).
import * as vscode from 'vscode';

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
