// Errors raised by the VS Code adapter itself. Each carries what the message needs; describeError
// turns them into sentences.
import type { ModelSetting } from '../settings/rlmSettings';

/** A question about the same target is already running: one run at a time per context (RunRegistry). */
export class RunBusyError extends Error {
  constructor(
    readonly contextKey: string,
    readonly runningQuestion: string,
  ) {
    super(`A question about this target is already running ("${runningQuestion}"). Stop it or wait for it to finish.`);
    this.name = 'RunBusyError';
  }
}

/** No model is configured at all (first use). */
export class NoModelConfiguredError extends Error {
  constructor() {
    super('No model is configured for RLM yet.');
    this.name = 'NoModelConfiguredError';
  }
}

/** The target cannot be bound: binary, too large, empty, unreadable. Carries what and why. */
export class TargetRefusedError extends Error {
  constructor(
    readonly target: string,
    readonly reason: 'binary' | 'too-large' | 'empty' | 'unreadable' | 'special' | 'no-editor' | 'no-workspace' | 'outside-workspace',
    message: string,
  ) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** The workspace is not trusted, so nothing is sent to a model. */
export class UntrustedWorkspaceError extends Error {
  constructor() {
    super('RLM is disabled in this untrusted workspace');
    this.name = 'UntrustedWorkspaceError';
  }
}

/** Hosted endpoints (no base URL) always need a key; local servers usually do not. */
export class MissingApiKeyError extends Error {
  constructor(readonly setting: ModelSetting) {
    super(`No API key is set for ${setting.provider} at ${setting.baseUrl || 'its official endpoint'}.`);
    this.name = 'MissingApiKeyError';
  }
}
