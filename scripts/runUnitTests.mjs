// Runs every test/unit/**/*.test.ts with Node's own test runner (through tsx for TypeScript).
// Node 20 has no glob support in `node --test`, so the files are listed here; an empty list is an error,
// so that a run which executed no test can never look green.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (/\.test\.ts$/.test(name)) out.push(full);
  }
  return out;
}

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['test/unit'];
const files = roots.flatMap((r) => (statSync(r).isDirectory() ? findTests(r) : [r])).sort();
if (files.length === 0) {
  console.error(`No test files found under ${roots.join(', ')}`);
  process.exit(1);
}
console.log(`Running ${files.length} test files: ${files.map((f) => relative('.', f)).join(' ')}`);
const result = spawnSync(process.execPath, ['--require', './scripts/pyTextRequire.cjs', '--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
