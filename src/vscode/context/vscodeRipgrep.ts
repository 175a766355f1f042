// The ripgrep binary VS Code itself ships (its search uses it), under vscode.env.appRoot: search() over
// a lazy folder runs with it. Undefined when this build of VS Code keeps it elsewhere; search then
// falls back to the streamed scan in core.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function vscodeRipgrepPath(appRoot: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const binary = platform === 'win32' ? 'rg.exe' : 'rg';
  const candidates = ['node_modules.asar.unpacked', 'node_modules'].map((modules) => join(appRoot, modules, '@vscode', 'ripgrep', 'bin', binary));
  return candidates.find((path) => existsSync(path));
}
