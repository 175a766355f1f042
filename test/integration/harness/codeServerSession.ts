// One code-server with a fresh profile: its own user-data and extensions directories, quiet user
// settings, and either the packaged .vsix installed or nothing (for extensionDevelopmentPath runs).
import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { installExtension, startCodeServer, writeUserSettings } from '../../../scripts/codeServer/launch.mjs';
import type { RunningCodeServer } from '../../../scripts/codeServer/launch.mjs';
import { newSessionDir, sampleWorkspaceDir, vsixPath } from './outputPaths';

export interface CodeServerSessionOptions {
  /** Names the session directory under test-output/sessions/. */
  label: string;
  /** 'vsix' installs the packaged extension (default); 'none' installs nothing. */
  extension?: 'vsix' | 'none';
  /** Folder to open. Default: a fresh copy of test/fixtures/sampleWorkspace, so tests may write into it. */
  workspace?: string;
  /** Keep Workspace Trust on (the workspace then opens untrusted). Default: trust disabled. */
  workspaceTrust?: boolean;
  /** Extra user settings on top of the quiet defaults. */
  userSettings?: Record<string, unknown>;
  /** Environment for code-server and so for the extension host it forks. */
  env?: Record<string, string>;
  /** More .vsix files to install first (test-only helper extensions). */
  extraVsix?: string[];
}

export interface CodeServerSession {
  server: RunningCodeServer;
  dir: string;
  workspace: string;
  userDataDir: string;
  extensionsDir: string;
  /** Stops code-server and its children, removes the profile and the workspace copy; logs (code-server's and the profile's) stay in `dir`. */
  dispose(): Promise<void>;
}

export async function startCodeServerSession(options: CodeServerSessionOptions): Promise<CodeServerSession> {
  const dir = await newSessionDir(options.label);
  const userDataDir = join(dir, 'user-data');
  const extensionsDir = join(dir, 'extensions');
  await mkdir(extensionsDir, { recursive: true });
  await writeUserSettings(userDataDir, options.userSettings);
  let workspace = options.workspace;
  const ownsWorkspace = !workspace;
  if (!workspace) {
    workspace = join(dir, 'workspace');
    await cp(sampleWorkspaceDir(), workspace, { recursive: true });
  }
  if ((options.extension ?? 'vsix') === 'vsix') {
    await installExtension({ vsix: vsixPath(), userDataDir, extensionsDir });
  }
  for (const vsix of options.extraVsix ?? []) await installExtension({ vsix, userDataDir, extensionsDir });
  const server = await startCodeServer({
    workspace,
    userDataDir,
    extensionsDir,
    logFile: join(dir, 'code-server.log'),
    workspaceTrust: options.workspaceTrust ?? false,
    env: options.env ?? {},
  });
  let disposed = false;
  return {
    server,
    dir,
    workspace,
    userDataDir,
    extensionsDir,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await server.stop();
      // The window's and the extension host's logs (the RLM output channel among them) outlive the
      // profile, so a failure can be read afterwards.
      await cp(join(userDataDir, 'logs'), join(dir, 'logs'), { recursive: true }).catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
      await rm(extensionsDir, { recursive: true, force: true });
      if (ownsWorkspace) await rm(workspace, { recursive: true, force: true });
    },
  };
}

/** The vscode-remote URI by which code-server's workbench names a path on the server. */
export function remoteUri(server: RunningCodeServer, absolutePath: string): string {
  return `vscode-remote://127.0.0.1:${server.port}${absolutePath}`;
}
