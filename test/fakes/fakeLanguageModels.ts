// A stand-in for `vscode.lm` that behaves like the real API where the RLM client depends on it:
// selectChatModels filters by id/family/vendor, sendRequest resolves to a response whose `text` streams
// fragments one at a time (asynchronously), failures are LanguageModelError-like (a `code` of
// NoPermissions, Blocked, NotFound or Unknown with a `cause`), and a cancelled token ends the stream
// with a "Canceled" error, as vscode.CancellationError does.
import type { LmCancellation, LmCancellationToken, LmChatModel, LmMessage, LmRequestOptions, LmResponse, LmSelector, LmSurface } from '../../src/vscode/models/lmSurface';

export class FakeLanguageModelError extends Error {
  constructor(
    message: string,
    readonly code: 'NoPermissions' | 'Blocked' | 'NotFound' | 'Unknown',
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = 'LanguageModelError';
  }
}

class FakeCancellation implements LmCancellation {
  private cancelled = false;
  private readonly listeners = new Set<() => void>();
  readonly token: LmCancellationToken;
  constructor() {
    const isCancelled = (): boolean => this.cancelled;
    this.token = {
      get isCancellationRequested(): boolean {
        return isCancelled();
      },
      onCancellationRequested: (listener) => {
        this.listeners.add(listener);
        return { dispose: () => this.listeners.delete(listener) };
      },
    };
  }
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    for (const l of [...this.listeners]) l();
  }
  dispose(): void {
    this.listeners.clear();
  }
}

interface FakeRequest {
  messages: LmMessage[];
  options: LmRequestOptions;
  token: LmCancellationToken;
}

/** What the model does with one request: fragments to stream, or an error before or during the stream. */
export type FakeBehaviour = { fragments: string[]; delayMs?: number; failAfter?: { fragments: number; error: Error } } | { rejectWith: Error };

export class FakeChatModel implements LmChatModel {
  readonly requests: FakeRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  countCalls = 0;
  failCount = false;

  constructor(
    readonly id: string,
    readonly family: string,
    readonly behave: (request: FakeRequest) => FakeBehaviour,
    readonly vendor = 'test-vendor',
    readonly maxInputTokens = 100_000,
    readonly name = `Fake ${id}`,
    readonly version = '1',
  ) {}

  /** A word-ish tokenizer, so counts differ visibly from the 4-characters estimate. */
  async countTokens(text: string): Promise<number> {
    this.countCalls++;
    await Promise.resolve();
    if (this.failCount) throw new FakeLanguageModelError('tokenizer unavailable', 'Unknown');
    return text.split(/\s+/).filter(Boolean).length;
  }

  async sendRequest(messages: LmMessage[], options: LmRequestOptions, token: LmCancellationToken): Promise<LmResponse> {
    const request = { messages: messages.map((m) => ({ ...m })), options, token };
    this.requests.push(request);
    await Promise.resolve();
    const behaviour = this.behave(request);
    if ('rejectWith' in behaviour) throw behaviour.rejectWith;
    const script = behaviour;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const done = (): void => {
      this.inFlight--;
    };
    async function* text(): AsyncGenerator<string> {
      try {
        for (let i = 0; i < script.fragments.length; i++) {
          if (script.failAfter && i === script.failAfter.fragments) throw script.failAfter.error;
          await new Promise((r) => setTimeout(r, script.delayMs ?? 1));
          if (token.isCancellationRequested) throw Object.assign(new Error('Canceled'), { name: 'Canceled' });
          yield script.fragments[i] as string;
        }
      } finally {
        done();
      }
    }
    return { text: text() };
  }
}

export class FakeLm implements LmSurface {
  readonly cancellations: FakeCancellation[] = [];
  constructor(readonly models: FakeChatModel[]) {}

  async selectChatModels(selector: LmSelector = {}): Promise<readonly LmChatModel[]> {
    await Promise.resolve();
    return this.models.filter(
      (m) => (selector.id === undefined || m.id === selector.id) && (selector.family === undefined || m.family === selector.family) && (selector.vendor === undefined || m.vendor === selector.vendor),
    );
  }

  createCancellation(): LmCancellation {
    const c = new FakeCancellation();
    this.cancellations.push(c);
    return c;
  }
}
