// rlm.sandbox.allowWeaker: the workspace folders where the user accepted a REPL sandbox with fewer than
// two independent layers for host files or the network (sandboxStrength.ts). Application-scoped and read
// from the user's own settings only: a repository's .vscode/settings.json or a .code-workspace file is a
// file an attacker can ship, so it can never accept a weaker sandbox for itself. No `vscode` import: the
// adapter passes the user value and the open folders.
import { resolve } from 'node:path';
import { ALLOW_WEAKER_SETTING } from '../../core/repl/sandboxStrength';

/** The setting's key under the `rlm` section. */
export const ALLOW_WEAKER_KEY = ALLOW_WEAKER_SETTING.replace(/^rlm\./, '');

function same(a: string, b: string, platform: NodeJS.Platform): boolean {
  const norm = (p: string) => resolve(p).replace(/[\\/]+$/, '');
  return platform === 'win32' || platform === 'darwin' ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
}

/**
 * True when every open workspace folder is listed in the user's value (a run may bind any of them).
 * Anything but a list of non-empty strings accepts nothing.
 */
export function weakerSandboxAccepted(userValue: unknown, folders: readonly string[], platform: NodeJS.Platform = process.platform): boolean {
  if (!Array.isArray(userValue) || folders.length === 0) return false;
  const listed = userValue.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return folders.every((folder) => listed.some((entry) => same(entry.trim(), folder, platform)));
}
