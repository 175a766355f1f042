// At most N model requests at once. VS Code's models (Copilot's above all) rate-limit per user, so
// one gate is shared by a run's root and sub clients and an llm_query_batched of 50 prompts waits its
// turn here instead of failing with quota errors. No `vscode` import.

export class RequestGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`RequestGate needs a whole number ≥ 1, got ${limit}`);
  }

  /** Requests running now (tests and progress). */
  get inFlight(): number {
    return this.active;
  }

  /** Resolves with a release function once a slot is free; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        resolve(this.releaser());
      };
      const onAbort = (): void => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(abortReason(signal));
      };
      this.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }
}

function abortReason(signal: AbortSignal | undefined): unknown {
  const reason: unknown = signal?.reason;
  return reason ?? Object.assign(new Error('aborted'), { name: 'AbortError' });
}
