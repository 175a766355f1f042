// Reads the root model's reply: which code block to run, and whether it finished in prose.
// Models stray from the protocol often, so every variation accepted here is one seen in practice.

export interface CodeBlock {
  /** The fence's info string, lower-cased: 'repl', 'python', 'py' or '' for a bare fence. */
  lang: string;
  code: string;
  /** The fence was never closed (the reply was cut off); the code may be incomplete. */
  unclosed: boolean;
}

export type ProseFinal = { kind: 'FINAL'; value: string } | { kind: 'FINAL_VAR'; name: string };

export interface ParsedReply {
  blocks: CodeBlock[];
  /** FINAL(...) or FINAL_VAR(...) written outside any code block, at the start of a line. */
  proseFinal?: ProseFinal;
  /** The reply with every fenced block removed. */
  prose: string;
}

const RUNNABLE_LANGS = new Set(['repl', 'python', 'python3', 'py', '']);
const FENCE_OPEN = /^[ \t]*```[ \t]*([A-Za-z0-9_+-]*)[^\n]*$/;
const FENCE_CLOSE = /^[ \t]*```[ \t]*$/;

export function parseReply(text: string): ParsedReply {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  const proseLines: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const open = FENCE_OPEN.exec(lines[i] ?? '');
    if (!open) {
      proseLines.push(lines[i] ?? '');
      i += 1;
      continue;
    }
    const lang = (open[1] ?? '').toLowerCase();
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !FENCE_CLOSE.test(lines[j] ?? '')) {
      body.push(lines[j] ?? '');
      j += 1;
    }
    const unclosed = j >= lines.length;
    if (RUNNABLE_LANGS.has(lang)) blocks.push({ lang, code: dedent(body.join('\n')), unclosed });
    i = j + 1;
  }
  const prose = proseLines.join('\n');
  const proseFinal = findProseFinal(prose);
  return { blocks: blocks.filter((b) => b.code.trim() !== ''), prose, ...(proseFinal ? { proseFinal } : {}) };
}

/** FINAL_VAR(name) / FINAL(text) at the start of a line; a mention inside a sentence does not count. */
export function findProseFinal(prose: string): ProseFinal | undefined {
  const finalVar = /^[ \t>*_`]*FINAL_VAR\(\s*["']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*\)/m.exec(prose);
  if (finalVar?.[1]) return { kind: 'FINAL_VAR', name: finalVar[1] };
  const start = /^[ \t>*_`]*FINAL\(/m.exec(prose);
  if (!start) return undefined;
  const rest = prose.slice(start.index + start[0].length);
  const close = rest.lastIndexOf(')');
  if (close < 0) return undefined;
  return { kind: 'FINAL', value: unquote(rest.slice(0, close).trim()) };
}

/** The answer a forced-final reply gives: FINAL(...) if present, else the prose without code. */
export function forcedAnswerText(text: string): ProseFinal {
  const parsed = parseReply(text);
  if (parsed.proseFinal) return parsed.proseFinal;
  for (const block of parsed.blocks) {
    const inCode = findProseFinal(block.code);
    if (inCode) return inCode;
  }
  return { kind: 'FINAL', value: parsed.prose.trim() };
}

function unquote(value: string): string {
  for (const quote of ['"""', "'''", '"', "'"]) {
    if (value.length >= quote.length * 2 && value.startsWith(quote) && value.endsWith(quote)) {
      return value.slice(quote.length, value.length - quote.length);
    }
  }
  return value;
}

/** Code indented as a whole (inside a list item, say) would be a Python IndentationError. */
function dedent(code: string): string {
  const lines = code.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const common = indents.length ? Math.min(...indents) : 0;
  return common > 0 ? lines.map((l) => l.slice(common)).join('\n') : code;
}
