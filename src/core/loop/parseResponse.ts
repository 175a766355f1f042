// Reads the root model's reply: which code block runs, and whether it finished in prose. The rules are
// docs/rlm-contract.md's "What runs"; models stray from the protocol often, so every variation accepted
// here is one seen in practice.

export interface CodeBlock {
  /** The fence's info string, lower-cased: 'repl', 'python', 'py', 'python3' or '' for a bare fence. */
  lang: string;
  code: string;
  /** The fence was never closed (the reply was cut off); the code may be incomplete. */
  unclosed: boolean;
}

export type ProseFinal = { kind: 'FINAL'; value: string } | { kind: 'FINAL_VAR'; name: string };

export interface ParsedReply {
  /** Every runnable block, in order (decorative wrapper fences removed). */
  blocks: CodeBlock[];
  /** The block that runs: the first ```repl block; failing that the first Python or bare block. */
  run?: CodeBlock;
  /** Set when the block that runs is not a ```repl block: the model is told so. */
  fallback?: 'python' | 'bare';
  /** FINAL(...) or FINAL_VAR(...) written outside any code block, at the start of a line. */
  proseFinal?: ProseFinal;
  /** The reply with every fenced block removed. */
  prose: string;
}

const PYTHON_LANGS = new Set(['python', 'python3', 'py']);
/** Info strings of an outer fence that only decorates the real block inside it. */
const WRAPPER_LANGS = new Set(['', 'markdown', 'md', 'text', 'txt']);
/** A trailing \r (CRLF replies) is allowed on fence lines; code and prose keep their line endings. */
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n`]*$/;

interface RawBlock {
  lang: string;
  body: string[];
  unclosed: boolean;
}

function closes(line: string, fence: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/.exec(line);
  return !!m && m[1]![0] === fence[0] && m[1]!.length >= fence.length;
}

/** Splits lines into prose and fenced blocks; a fence closes only with the same character, at least as long. */
function scan(lines: string[]): { blocks: RawBlock[]; prose: string[] } {
  const blocks: RawBlock[] = [];
  const prose: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const open = FENCE_OPEN.exec(lines[i] ?? '');
    if (!open) {
      prose.push(lines[i] ?? '');
      i += 1;
      continue;
    }
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !closes(lines[j] ?? '', fence)) {
      body.push(lines[j] ?? '');
      j += 1;
    }
    blocks.push({ lang: (open[2] ?? '').toLowerCase(), body, unclosed: j >= lines.length });
    i = j + 1;
  }
  return { blocks, prose };
}

/**
 * A wrapper fence around a real block. Either properly nested (````` ````\n```repl ... ```\n```` `````),
 * or sloppy: an outer ``` whose first line opens ```repl, so the inner close ended the outer block and
 * the code is the rest of its body.
 */
function unwrap(block: RawBlock): CodeBlock[] | undefined {
  if (!WRAPPER_LANGS.has(block.lang)) return undefined;
  const first = block.body.findIndex((l) => l.trim() !== '');
  const inner = first >= 0 ? FENCE_OPEN.exec(block.body[first] ?? '') : null;
  if (!inner) return undefined;
  const nested = scan(block.body);
  const runnable = nested.blocks.flatMap((b) => toCodeBlocks(b));
  if (runnable.length > 0 && nested.blocks.some((b) => !b.unclosed)) return runnable;
  const lang = (inner[2] ?? '').toLowerCase();
  if (lang !== 'repl' && !PYTHON_LANGS.has(lang)) return undefined;
  return [{ lang, code: dedent(block.body.slice(first + 1).join('\n')), unclosed: block.unclosed }];
}

function toCodeBlocks(block: RawBlock): CodeBlock[] {
  const unwrapped = unwrap(block);
  if (unwrapped) return unwrapped;
  if (block.lang !== 'repl' && block.lang !== '' && !PYTHON_LANGS.has(block.lang)) return [];
  return [{ lang: block.lang, code: dedent(block.body.join('\n')), unclosed: block.unclosed }];
}

export function parseReply(text: string): ParsedReply {
  const { blocks: raw, prose: proseLines } = scan(text.split('\n'));
  const blocks = raw.flatMap(toCodeBlocks).filter((b) => b.code.trim() !== '');
  const prose = proseLines.join('\n');
  const proseFinal = findProseFinal(prose);
  const repl = blocks.find((b) => b.lang === 'repl');
  const python = blocks.find((b) => PYTHON_LANGS.has(b.lang));
  const bare = blocks.find((b) => b.lang === '');
  const run = repl ?? python ?? bare;
  const fallback = repl ? undefined : python ? 'python' : bare ? 'bare' : undefined;
  return { blocks, prose, ...(run ? { run } : {}), ...(fallback ? { fallback } : {}), ...(proseFinal ? { proseFinal } : {}) };
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
