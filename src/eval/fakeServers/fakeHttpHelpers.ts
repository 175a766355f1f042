// Small pieces of the fake servers' HTTP handling: delays that end when the client leaves, dropped
// connections, provider-shaped error bodies and the key a request presents.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeProtocol, FakeResponseSpec } from './fakeServerTypes';
import { anthropicErrorBody } from './fakeWireAnthropic';
import { openAIErrorBody } from './fakeWireOpenAI';

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Sends `text`, lets it reach the client, then cuts the connection: a drop after partial data. */
export async function dropAfter(res: ServerResponse, text: string): Promise<void> {
  await new Promise<void>((resolve) => res.write(text, () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 20));
  res.socket?.destroy();
}

/** Like the real OpenAI API, echo a masked form of the rejected key, so key redaction can be tested. */
export function unauthorizedMessage(protocol: FakeProtocol, key: string | undefined): string {
  if (protocol === 'anthropic') return 'invalid x-api-key';
  if (!key) return "You didn't provide an API key.";
  const masked = key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}` : key;
  return `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`;
}

export function errorBody(protocol: FakeProtocol, status: number, spec: Partial<FakeResponseSpec> = {}): Record<string, unknown> {
  return protocol === 'openai'
    ? openAIErrorBody(status, spec.errorMessage, spec.errorType, spec.errorCode)
    : anthropicErrorBody(status, spec.errorMessage, spec.errorType);
}

export function presentedKey(protocol: FakeProtocol, headers: IncomingMessage['headers']): string | undefined {
  const bearer = /^Bearer (.*)$/i.exec(headers.authorization ?? '')?.[1];
  if (protocol === 'anthropic') {
    const key = headers['x-api-key'];
    return (Array.isArray(key) ? key[0] : key) ?? bearer;
  }
  return bearer;
}
