// The `rlm` command (dist/rlm.js): starts dist/cli.js from V8's code cache (codeCache.ts). Kept
// apart from cli.js so that this small file is all Node compiles before the cache is used.
import { join } from 'node:path';
import { codeCacheDir, runWithCodeCache } from './codeCache';

runWithCodeCache(join(__dirname, 'cli.js'), codeCacheDir(process.env));
