// Deterministic synthetic service logs with a "secret" that only code can find: the exact count
// of one kind of line among many similar ones. Used for the sample workspace, `npm start` and UI
// tests that ask RLM about a file far too long to read. Same seed, same bytes, same answer.

const SERVICES = ['api', 'auth', 'billing', 'payments', 'search', 'worker'];
const LEVELS = ['INFO', 'INFO', 'INFO', 'INFO', 'DEBUG', 'DEBUG', 'WARN', 'ERROR'];
const MESSAGES = {
  INFO: ['request completed', 'cache refreshed', 'user signed in', 'job scheduled', 'health check ok'],
  DEBUG: ['query plan chosen', 'retrying connection', 'payload parsed', 'lock acquired'],
  WARN: ['slow response', 'retry budget low', 'deprecated endpoint called', 'queue depth high'],
  ERROR: ['upstream timeout', 'card declined', 'database unavailable', 'invalid signature'],
};

/** mulberry32: tiny, fast and deterministic; quality is irrelevant here. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

/**
 * Generates `lines` log lines. The answer counts ERROR lines of service "payments" with message
 * "card declined" and HTTP status 402: the question "how many payments card declines returned 402?"
 * @param {{ lines?: number, seed?: number }} [options]
 * @returns {{ text: string, lines: number, answer: number, question: string }}
 */
export function generateServiceLog({ lines = 2000, seed = 20261202 } = {}) {
  if (!Number.isInteger(lines) || lines < 1) throw new RangeError(`lines must be a positive integer, got ${lines}`);
  const rand = random(seed);
  const out = [];
  let answer = 0;
  let time = Date.UTC(2026, 10, 30, 0, 0, 0);
  for (let i = 0; i < lines; i++) {
    time += Math.floor(rand() * 900) + 10;
    const level = pick(rand, LEVELS);
    const service = pick(rand, SERVICES);
    const message = pick(rand, MESSAGES[level]);
    const status = level === 'ERROR' ? pick(rand, [402, 500, 502, 503, 504]) : pick(rand, [200, 200, 200, 201, 204, 304]);
    const ms = Math.floor(rand() * 2000);
    const request = Math.floor(rand() * 0xffffff).toString(16).padStart(6, '0');
    if (level === 'ERROR' && service === 'payments' && message === 'card declined' && status === 402) answer += 1;
    out.push(`${new Date(time).toISOString()} ${level.padEnd(5)} [${service}] ${message} status=${status} duration_ms=${ms} request=${request}`);
  }
  return {
    text: `${out.join('\n')}\n`,
    lines,
    answer,
    question: 'How many ERROR lines from the payments service say "card declined" with status=402?',
  };
}
