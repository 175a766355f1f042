// The user's cache folder as the XDG base directory spec names it: $XDG_CACHE_HOME, else ~/.cache.
// A leaf module: the `rlm` launcher's code cache (codeCache.ts) uses it, and the launcher must stay a few KB.
import { join } from 'node:path';

export function userCacheBase(env: NodeJS.ProcessEnv, home: string): string {
  return env.XDG_CACHE_HOME || join(home, '.cache');
}
