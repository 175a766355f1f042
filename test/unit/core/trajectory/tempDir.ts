// A temporary folder per test file, removed when the tests end (also on failure).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rlm-${prefix}-`));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function bufferIo(): { io: { stdout: { write(t: string): boolean }; stderr: { write(t: string): boolean } }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (t: string) => ((out += t), true) }, stderr: { write: (t: string) => ((err += t), true) } },
    out: () => out,
    err: () => err,
  };
}
