// Where the CLI keeps its sub-call cache: the user's cache folder, one subfolder per working directory,
// so two projects never share answers. --cache-dir (or RLM_CACHE_DIR) moves the root, not the split.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { SubCallCache, workspaceCacheDir } from '../../core/models/subCallCache';
import type { SubCallCacheUse } from '../../core/loop/loopTypes';
import { userCacheBase } from './userCacheBase';

export const DEFAULT_CACHE_MAX_MB = 256;

export interface CacheChoice {
  /** off: this run neither reads nor stores; refresh: sends every call and stores the fresh answers. */
  mode: 'use' | 'refresh' | 'off';
  /** The cache root from --cache-dir, if given. */
  dir?: string;
  maxMb: number;
}

interface LocationEnv {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
}

/** The platform's cache folder for rlm, before the per-workspace split. */
export function defaultCacheRoot({ env, platform, home }: LocationEnv): string {
  if (env.RLM_CACHE_DIR) return env.RLM_CACHE_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'rlm');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'rlm', 'Cache');
  return join(userCacheBase(env, home), 'rlm');
}

/** The folder of the working directory's entries (the real path, so a symlinked checkout shares it). */
export function cliCacheDir(root: string, cwd: string): string {
  let workspace = cwd;
  try {
    workspace = realpathSync(cwd);
  } catch {
    // a vanished cwd still gets its own folder
  }
  return workspaceCacheDir(join(root, 'subcalls'), workspace);
}

export function cliCacheUse(choice: CacheChoice, cwd: string, where: LocationEnv): SubCallCacheUse | undefined {
  if (choice.mode === 'off') return undefined;
  const root = choice.dir ?? defaultCacheRoot(where);
  const cache = new SubCallCache({ dir: cliCacheDir(root, cwd), maxBytes: Math.round(choice.maxMb * 1024 * 1024) });
  return { cache, mode: choice.mode };
}
