// Types for launch.mjs.
export declare class CodeServerError extends Error {
  readonly logFile: string | undefined;
  constructor(message: string, options?: { logFile?: string });
}
export declare const QUIET_USER_SETTINGS: Record<string, unknown>;
export declare function findFreePort(): Promise<number>;
export declare function writeUserSettings(userDataDir: string, extra?: Record<string, unknown>): Promise<void>;
export declare function installExtension(options: { vsix: string; userDataDir: string; extensionsDir: string }): Promise<string>;
export interface StartCodeServerOptions {
  workspace?: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  /** Keep Workspace Trust enabled (for untrusted-workspace tests). Default: disabled. */
  workspaceTrust?: boolean;
  port?: number;
  env?: Record<string, string>;
  timeoutMs?: number;
}
export interface RunningCodeServer {
  url: string;
  port: number;
  pid: number;
  logFile: string;
  exited: Promise<number | string | null>;
  stop(): Promise<void>;
}
export declare function startCodeServer(options: StartCodeServerOptions): Promise<RunningCodeServer>;
