// Scrubs secrets from everything that is about to be written to a trajectory. The writer runs every
// line through this, so an API key that leaks into a prompt, an output or an error message is still
// never stored. Configured secrets are removed exactly; common key and header shapes by pattern.

export const REDACTED = '[REDACTED]';

/** Shapes of credentials that must never be stored, even if nobody told us the value. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /sk-[A-Za-z0-9_-]{16,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(x-api-key|api[-_]?key|authorization)(["']?\s*[:=]\s*["']?)([^\s"',}]{8,})/gi,
];

/** Object keys whose values are credentials, whatever they contain. */
const SECRET_KEYS = /^(api[-_]?key|apikey|authorization|x-api-key|auth[-_]?token|access[-_]?token|secret|password)$/i;

/** Shortest configured secret that is scrubbed verbatim; shorter ones would shred ordinary text. */
const MIN_SECRET_LENGTH = 6;

export interface Redactor {
  /** Returns the text with every secret replaced. */
  scrubText(text: string): string;
  /**
   * Returns a JSON-like value with every string scrubbed and credential-named keys replaced. Parts with
   * nothing to scrub are the input's own (never modified): serialise the result, do not mutate it.
   */
  scrubValue<T>(value: T): T;
  /** The configured secrets that are long enough to be matched (for tests and diagnostics). */
  readonly secretCount: number;
}

export function createRedactor(secrets: Iterable<string | undefined> = []): Redactor {
  const exact = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))]
    // Longest first, so a key that contains another key is removed whole.
    .sort((a, b) => b.length - a.length);

  const scrubText = (text: string): string => {
    let out = text;
    for (const secret of exact) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    for (const pattern of SECRET_PATTERNS) {
      pattern.lastIndex = 0;
      if (!pattern.test(out)) continue;
      pattern.lastIndex = 0;
      out = out.replace(pattern, (match: string, name?: string, sep?: string) =>
        typeof name === 'string' && typeof sep === 'string' ? `${name}${sep}${REDACTED}` : REDACTED,
      );
    }
    return out;
  };

  const scrubValue = <T>(value: T): T => scrubAny(value, scrubText) as T;
  return { scrubText, scrubValue, secretCount: exact.length };
}

/**
 * The value with every string scrubbed and credential-named keys replaced. Copy on write: a part with
 * nothing to scrub is returned as it is (the caller only serialises the result), so the writer does not
 * copy every event it writes, which is nearly all of a fan-out's allocation in the writer.
 */
function scrubAny(value: unknown, scrubText: (s: string) => string): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const scrubbed = scrubAny(value[i], scrubText);
      if (scrubbed !== value[i]) out ??= value.slice();
      if (out) out[i] = scrubbed;
    }
    return out ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    let out: Record<string, unknown> | undefined;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const v = record[key];
      const scrubbed = SECRET_KEYS.test(key) && v !== null && v !== undefined && v !== '' ? REDACTED : scrubAny(v, scrubText);
      if (scrubbed !== v) out ??= { ...record };
      if (out) out[key] = scrubbed;
    }
    return out ?? value;
  }
  return value;
}
