// Errors of a run an agent started (VS Code's rlm_ask tool, `rlm mcp`): each message is one sentence
// the calling agent can act on (name other paths, configure a model, ask a person), since the agent,
// not a person, reads it first.
import type { ErrorKind, KindedError } from '../errorKind';

type AgentAskErrorReason = 'bad-path' | 'outside-root' | 'no-match' | 'too-many-matches' | 'not-configured' | 'untrusted' | 'bad-input' | 'no-selection';

export class AgentAskError extends Error implements KindedError {
  readonly errorKind: ErrorKind = 'invalid_context';
  constructor(
    readonly reason: AgentAskErrorReason,
    message: string,
    /** The path as the agent gave it, when one is at fault. */
    readonly path?: string,
  ) {
    super(message);
    this.name = 'AgentAskError';
  }
}
