// VS Code language-model failures as our typed model errors. LanguageModelError says what went wrong
// in `code` (NoPermissions, Blocked, NotFound, or Unknown with the provider's error as `cause`), so the
// codes are read first and the message only for what the codes do not tell apart (quota, a too-long
// prompt). No `vscode` import: errors are read by shape, as the real ones and test stand-ins share it.
import {
  AuthError,
  ContextTooLongError,
  ModelAbortedError,
  ModelConfigError,
  ModelError,
  RateLimitError,
  ServerError,
} from '../../core/models/modelErrors';
import type { ModelErrorInfo } from '../../core/models/modelErrors';

/** Where to manage which extensions may use which models, for the consent messages. */
const ACCESS_HINT = 'Ask again and choose Allow when VS Code asks, or grant access under Accounts (the person icon) > Manage Language Model Access.';

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function textOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  // The provider's own error is the cause of an Unknown LanguageModelError; read a few levels down.
  for (let depth = 0; depth < 3 && current !== undefined && current !== null; depth++) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = (current as { cause?: unknown }).cause;
  }
  return parts.filter(Boolean).join(' — ');
}

function isCancellation(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  // vscode.CancellationError is named "Canceled"; a stream broken off by the token may say so too.
  return name === 'Canceled' || name === 'AbortError' || (error instanceof Error && error.message === 'Canceled');
}

/** The typed error for anything a VS Code language-model call threw. */
export function mapLanguageModelError(error: unknown, info: Omit<ModelErrorInfo, 'cause'>, aborted: boolean): ModelError {
  if (error instanceof ModelError) return error;
  const withCause = { ...info, cause: error };
  if (aborted || isCancellation(error)) return new ModelAbortedError('the request was cancelled', withCause);
  const text = textOf(error);
  switch (codeOf(error)) {
    case 'NoPermissions':
      return new AuthError(`VS Code did not let RLM use this model: the consent prompt was declined or not answered (${text}). ${ACCESS_HINT}`, withCause);
    case 'Blocked':
      return new RateLimitError(
        `VS Code blocked requests to this model, usually because the plan's quota or rate limit is used up (${text}). Wait and try again, lower rlm.vscodeModelConcurrency, or pick another model.`,
        withCause,
      );
    case 'NotFound':
      return new ModelConfigError(`VS Code no longer offers this model (${text}). Pick another one with "RLM: Configure models…".`, withCause);
    default:
      break;
  }
  if (/quota|rate.?limit|too many requests|\b429\b/i.test(text)) {
    return new RateLimitError(`the model's quota or rate limit is used up (${text}). Wait and try again, or lower rlm.vscodeModelConcurrency.`, withCause);
  }
  if (/context (length|window)|too long|token limit|maximum (context|prompt)|prompt is too large/i.test(text)) {
    return new ContextTooLongError(`the prompt does not fit the model (${text})`, withCause);
  }
  if (/consent|not allowed|permission/i.test(text)) return new AuthError(`${text}. ${ACCESS_HINT}`, withCause);
  return new ServerError(text || 'the language model failed without saying why', withCause);
}
