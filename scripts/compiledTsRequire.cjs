// Preloaded into every test process of a run (scripts/runUnitTests.mjs): `require` of a .ts file loads
// its compiled form from RLM_COMPILED_TS_DIR (scripts/compileTestSources.mjs wrote it before the run),
// under the .ts file's own path, so that __dirname, stack traces (through the inline source map) and
// Node's module cache are those of the source. A .ts file that was not compiled (outside tsconfig.json's
// folders) is an error that says so, not a silent fallback.
'use strict';
const { readFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const compiledDir = process.env.RLM_COMPILED_TS_DIR;

class UncompiledSourceError extends Error {
  constructor(source, compiled) {
    super(`${source} was not compiled for this test run (no ${compiled}): only the .ts files in tsconfig.json's "include" folders are. Add its folder there.`);
    this.name = 'UncompiledSourceError';
    this.source = source;
  }
}

if (compiledDir) {
  require.extensions['.ts'] = (module, filename) => {
    const inRepository = relative(root, filename);
    const compiled = join(compiledDir, inRepository).replace(/\.ts$/, '.js');
    let code;
    try {
      if (inRepository.startsWith('..')) throw new Error('outside the repository');
      code = readFileSync(compiled, 'utf8');
    } catch {
      throw new UncompiledSourceError(filename, compiled);
    }
    module._compile(code, filename);
  };
}
