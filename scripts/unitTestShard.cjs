// One process of a unit-tier run (scripts/runUnitTests.mjs): it runs many test files, one after the
// other, instead of Node starting a process per file. Starting a process and loading the big
// dependencies (the model SDKs, highlight.js, zod) again for each of ~150 files was most of the tier's
// time; the unit tier's files start nothing and leave no global state behind, so they can share one.
//
// Each file runs inside a suite named by its absolute path, so that its top-level hooks (before, after,
// beforeEach…) stay its own, a file that fails to load fails its own suite, and the run's reporter
// (scripts/testRunReporter.mjs) counts each file's tests, as it does when Node runs one file per process.
//
// The files are not split ahead of time: every process of the run is given the whole list and claims
// the next unclaimed file when it is free (an atomic mkdir in the run's folder), so the processes end
// together however the files' durations are spread, and a process that dies only loses the file it was
// running: the others still run the rest. File number i < the number of processes is process i's own, so
// that none is left with no file (Node would count an empty process as a test of its own).
'use strict';
const { describe } = require('node:test');
const { mkdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/** True when this process is the first to claim file number `index` of the run. */
function claim(claimsDir, index) {
  try {
    mkdirSync(join(claimsDir, String(index)));
    return true;
  } catch (error) {
    if (error && error.code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Runs file number `own` of the run described by `planFile` (JSON: `files`, absolute paths,
 * `processes`, how many share them, and `claimsDir`), then every file after the first `processes` that
 * no other process has claimed, each in its own suite, one at a time.
 */
async function runShard(planFile, own) {
  const { files, processes, claimsDir } = JSON.parse(readFileSync(planFile, 'utf8'));
  const claimed = (index) => (index < processes ? index === own : claim(claimsDir, index));
  for (const index of [own, ...files.keys()].filter((i, at, all) => all.indexOf(i) === at)) {
    if (index >= files.length || !claimed(index)) continue;
    const file = files[index];
    // The suite's name is the file's path: the reporter finds each file's own entry by it.
    await describe(file, () => {
      require(file);
    });
  }
}

module.exports = { runShard };
