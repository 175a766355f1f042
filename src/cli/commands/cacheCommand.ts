// `rlm cache info|clear`: where this folder's sub-call cache is, how big, and emptying it.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SubCallCache } from '../../core/models/subCallCache';
import { formatBytes } from '../../shared/text/format';
import { UsageError, usageErrorFrom } from '../support/modelArgs';
import { cliCacheDir, defaultCacheRoot } from '../support/subCallCacheLocation';
import type { CommandIo } from './commandIo';
import { visibleControls } from '../../shared/text/untrustedText';

const CACHE_USAGE = `usage: rlm cache info|clear [--cache-dir DIR]

  info    where the sub-call cache of this working directory is, its entries and size
  clear   removes every cached answer of this working directory (other folders keep theirs)`;

interface CacheDeps extends CommandIo {
  env: Record<string, string | undefined>;
  cwd: string;
  platform?: NodeJS.Platform;
  home?: string;
}

export function runCache(argv: string[], deps: CacheDeps): number {
  let action: string;
  let dirFlag: string | undefined;
  try {
    const parsed = parseArgs({ args: argv, options: { 'cache-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    if (parsed.values.help) {
      deps.stdout.write(`${CACHE_USAGE}\n`);
      return 0;
    }
    if (parsed.positionals.length !== 1) throw new UsageError('give one action: info or clear');
    action = parsed.positionals[0]!;
    if (action !== 'info' && action !== 'clear') throw new UsageError(`unknown action "${visibleControls(action)}": use info or clear`);
    dirFlag = parsed.values['cache-dir'];
  } catch (error) {
    const usage = error instanceof UsageError ? error : usageErrorFrom(error);
    deps.stderr.write(`rlm cache: ${usage.message}\n${CACHE_USAGE}\n`);
    return 2;
  }
  const root = dirFlag ? resolve(deps.cwd, dirFlag) : defaultCacheRoot({ env: deps.env, platform: deps.platform ?? process.platform, home: deps.home ?? homedir() });
  const cache = new SubCallCache({ dir: cliCacheDir(root, deps.cwd), maxBytes: Number.MAX_SAFE_INTEGER });
  if (action === 'clear') {
    const entries = cache.entryCount;
    cache.clear();
    deps.stdout.write(`rlm: cleared ${entries} cached ${entries === 1 ? 'answer' : 'answers'} (${cache.dir})\n`);
    return 0;
  }
  deps.stdout.write(`${cache.dir}\n${cache.entryCount} cached ${cache.entryCount === 1 ? 'answer' : 'answers'}, ${formatBytes(cache.sizeBytes)}\n`);
  return 0;
}
