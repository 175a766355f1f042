// The part of VS Code's Language Model API the RLM client uses, as plain structural types. The client
// and the chat participant depend on this, not on `vscode`, so unit tests pass a stand-in that behaves
// like the real API (streamed text fragments, LanguageModelError-like errors with a `code`, a
// cancellation token) and vscodeLmSurface.ts adapts the real `vscode.lm` to it.

/** VS Code's CancellationToken, as far as the client uses it. */
export interface LmCancellationToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** A CancellationTokenSource. */
export interface LmCancellation {
  readonly token: LmCancellationToken;
  cancel(): void;
  dispose(): void;
}

/** LanguageModelChatMessage has only User and Assistant roles; the system prompt goes in as a user message. */
export interface LmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LmRequestOptions {
  /** Shown in VS Code's consent prompt: why this extension wants the model. */
  justification?: string;
}

/** LanguageModelChatResponse: `text` streams the answer's fragments and throws if the request fails midway. */
export interface LmResponse {
  readonly text: AsyncIterable<string>;
}

/** LanguageModelChat. */
export interface LmChatModel {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  sendRequest(messages: LmMessage[], options: LmRequestOptions, token: LmCancellationToken): PromiseLike<LmResponse>;
  countTokens(text: string, token?: LmCancellationToken): PromiseLike<number>;
}

export interface LmSelector {
  id?: string;
  family?: string;
  vendor?: string;
}

/** `vscode.lm` plus the CancellationTokenSource constructor. */
export interface LmSurface {
  selectChatModels(selector?: LmSelector): PromiseLike<readonly LmChatModel[]>;
  createCancellation(): LmCancellation;
}
