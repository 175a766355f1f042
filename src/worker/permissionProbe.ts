// Whether Node's permission model is really in force in the REPL worker, found by trying rather than
// by trusting that the flag was accepted: Electron has been seen to accept `--permission` and leave
// `process.permission` undefined with every file open (utilityProcess.fork in Electron 42). Run in the
// worker while it still boots, before layer 2 empties the fs module, so that only the permission model
// can be what refuses. The permission model is depth under layer 2 (docs/security.md).
import { closeSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxProbe } from '../core/repl/replTypes';

interface PermissionApi {
  has(scope: string, reference?: string): boolean;
}

/** Only the permission model's own refusal counts (an OS sandbox refuses with EPERM or EACCES). */
const refusedByPermissionModel = (error: unknown): boolean => (error as { code?: string } | undefined)?.code === 'ERR_ACCESS_DENIED';

function tryOpen(name: string, open: () => void): SandboxProbe {
  try {
    open();
    return { name, held: false, detail: 'the file was opened' };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { name, held: refusedByPermissionModel(error), detail: `${e.code ?? 'Error'}: ${String(e.message ?? error).slice(0, 100)}` };
  }
}

/**
 * `hostFile`: a file outside what the REPL may read (the Node binary); `writableDir`: a real host folder.
 * Judged by the refusals: in a worker thread started without the flags in its own execArgv,
 * `process.permission` is absent although the process-wide model refuses, so its presence alone decides
 * nothing; where it is present, it must also say the read is denied.
 */
export function probePermissionModel(hostFile = process.execPath, writableDir = __dirname): SandboxProbe[] {
  const permission = (process as unknown as { permission?: PermissionApi }).permission;
  const electron = process.versions.electron;
  const runtime = electron ? `Electron ${electron} run as Node ${process.version}` : `Node ${process.version}`;
  const read = tryOpen('permission model: a read outside the bundle is refused', () => closeSync(openSync(hostFile, 'r')));
  const path = join(writableDir, `.rlm-permission-probe-${process.pid}`);
  const write = tryOpen('permission model: a write is refused', () => {
    closeSync(openSync(path, 'wx'));
    unlinkSync(path);
  });
  let api: SandboxProbe;
  try {
    const allowed = permission ? permission.has('fs.read', hostFile) : undefined;
    api = {
      name: 'permission model: process.permission',
      held: allowed === false || (allowed === undefined && read.held && write.held),
      detail: allowed === undefined ? `absent in this thread (${runtime}); judged by the refusals` : allowed ? `has('fs.read') is true for ${hostFile} (${runtime})` : `denies reading ${hostFile} (${runtime})`,
    };
  } catch (error) {
    api = { name: 'permission model: process.permission', held: false, detail: String(error).slice(0, 100) };
  }
  return [api, read, write];
}
