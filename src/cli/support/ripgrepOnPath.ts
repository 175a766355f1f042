// The CLI's ripgrep for search() over a lazy folder: `rg` from PATH when there is one (checked to be
// an executable file, not run). Without it, search runs as a streamed scan on the host.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function ripgrepOnPath(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string | undefined {
  const names = platform === 'win32' ? ['rg.exe'] : ['rg'];
  for (const folder of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!folder) continue;
    for (const name of names) {
      const candidate = join(folder, name);
      try {
        if (!statSync(candidate).isFile()) continue;
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
