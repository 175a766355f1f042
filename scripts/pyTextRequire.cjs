// In the tests (compiled to CommonJS by scripts/compileTestSources.mjs, or under tsx), `import source
// from './x.py'` becomes require('./x.py'): give it the file's text, as esbuild's text loader does in
// the bundles.
const { readFileSync } = require('node:fs');

require.extensions['.py'] = (module, filename) => {
  module.exports = readFileSync(filename, 'utf8');
};
