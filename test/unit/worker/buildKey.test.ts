// The snapshot key is a hash of the sources that shape a snapshot: every Python file of the REPL as it
// is on disk, so that an edit to any of them refuses (and replaces) a snapshot of the old build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { preludeKey, snapshotSources } from '../../../src/worker/preludeInstall';
import { DISABLED_BUILTINS } from '../../../src/worker/builtinModules';

const pythonDir = join(__dirname, '..', '..', '..', 'src', 'worker', 'python');

test('every .py file of the REPL goes into the key, as its text on disk', () => {
  const files = readdirSync(pythonDir).filter((f) => f.endsWith('.py'));
  assert.ok(files.length >= 2, `found ${files.join(', ')}`);
  const sources = snapshotSources();
  for (const file of files) assert.ok(sources.includes(readFileSync(join(pythonDir, file), 'utf8')), `${file} is not hashed into the snapshot key`);
});

test('the built-ins patched out before a snapshot go into the key', () => {
  assert.ok(snapshotSources().includes(DISABLED_BUILTINS.join(',')));
});

test('the key is a sha256 of those sources and the stdlib identity, and changes with either', () => {
  const expected = createHash('sha256');
  for (const part of [...snapshotSources(), 'stdlib-1']) expected.update(part).update('\0');
  assert.equal(preludeKey('stdlib-1'), expected.digest('hex').slice(0, 16));
  assert.match(preludeKey('stdlib-1'), /^[0-9a-f]{16}$/);
  assert.notEqual(preludeKey('stdlib-1'), preludeKey('stdlib-2'));
});
