// What the root model is told. The system prompt teaches the protocol; the first user message
// carries the question and only the *metadata* of `context`, never its text.
import { notebookFormatLines } from '../context/notebookPrompt';
import type { ContextMetadata, InputFormat } from '../context/contextTypes';
import { CHILD_RUN_CONCURRENCY } from './limits';
import type { ChatMessage } from '../models/modelTypes';
import { formatCount } from '../../shared/text/format';

export interface PromptFacts {
  maxIterations: number;
  maxDepth: number;
  depth: number;
  subCallConcurrency: number;
  /** The sub model's context window in tokens, when known. */
  subWindowTokens?: number;
  subMaxTokens: number;
  observationMaxChars: number;
}

/** Roughly four characters per token for English text and code. */
const CHARS_PER_TOKEN = 4;

export function systemPrompt(facts: PromptFacts): string {
  const subChars = facts.subWindowTokens
    ? `about ${formatCount(Math.floor((facts.subWindowTokens - facts.subMaxTokens) * CHARS_PER_TOKEN * 0.8))} characters`
    : 'an unknown amount (assume about 100,000 characters)';
  const canRecurse = facts.depth < facts.maxDepth;
  return [
    'You answer a question about a body of text that is too large to read directly. It is loaded into a',
    'persistent Python REPL as the variable `context`; you see only its size and a short prefix. You',
    'explore it by writing Python code, one cell per turn, and reading what the code prints.',
    '',
    'Each turn, reply with exactly one fenced block:',
    '```repl',
    '# your Python code',
    '```',
    'Only the first ```repl block of a reply runs. Variables persist between turns. You see at most',
    `${formatCount(facts.observationMaxChars)} characters of a cell's output (its head and tail, with the true length),`,
    'so print summaries, counts and short slices rather than large text. The whole output of cell n stays',
    'in `_out[n]` for later slicing.',
    '',
    'Available in the REPL:',
    '- `context` (also `ctx`, the same object): a str, or a dict mapping file path to file text for several files.',
    '- `context_meta()`: sizes, file list and the input\'s format. `peek(start, end, path=None)`: a bounded slice (a str; printed, it shows its path and line numbers).',
    '- `search(pattern, max_hits=100, path=None, paths=None)`: regex hits as dicts with path, line, start, text.',
    '- `llm_query(prompt)`: asks a sub model and returns its reply as a str. `sub_query(prompt, slice)`: the same, about a slice (a str, a peek, or search hits).',
    `- \`llm_query_batched(prompts)\`: many prompts at once (${facts.subCallConcurrency} run in parallel), replies in the same order.`,
    canRecurse
      ? `- \`rlm_query(prompt, context=None)\` / \`rlm_query_batched(prompts, contexts=None)\`: hands a sub-question and a piece of\n  text to a helper that works like you, with its own REPL, and returns its answer (${Math.min(facts.subCallConcurrency, CHILD_RUN_CONCURRENCY)} helpers run at once).`
      : '- `rlm_query(prompt, context=None)`: at this depth it acts like `llm_query` on the prompt and context.',
    '- `SHOW_VARS()`: lists the variables you have defined.',
    '',
    'Sub-calls see only the prompt you give them. Pass them slices you have chosen (a chunk, a file, the',
    `lines around a search hit), never the whole \`context\`. A sub model can take ${subChars} per prompt`,
    `and replies with at most ${formatCount(facts.subMaxTokens)} tokens. A failed sub-call returns "[ERROR] <kind>: <why>" for`,
    'that item (kinds such as limit, timeout, connection); an empty prompt is refused in your code.',
    '',
    'To finish, do one of these inside a code block:',
    '- `FINAL("your answer")` with the answer text (it stops the cell: code after it does not run);',
    '- `FINAL_VAR(name)` (or `FINAL_VAR("name")`) to answer with the value of a variable you built;',
    '- set `answer["content"] = ...` and then `answer["ready"] = True`.',
    'If a limit is reached you get one last turn to answer from what you have. Printed output is never taken as the answer.',
    '',
    'Do not finish on your first turn: look at the data first and check your answer against it.',
    `You have ${facts.maxIterations} turns. Write the final answer for a human reader, in plain text or markdown.`,
    'Point to your evidence: cite each claim as `path:line` or `path:start-end` (lines count from 1, as in',
    "search() hits; a file's path as in context_meta(); for a single text write `context:line`). Cite only",
    'lines you have seen: every citation is checked against `context`, and one that is not there is flagged.',
  ].join('\n');
}

export function describeContext(meta: ContextMetadata): string {
  // Before binding, character counts are estimated from byte sizes (the first request does not wait).
  const about = meta.approximate ? 'about ' : '';
  const partial = meta.listing === 'partial';
  const lines = partial
    ? [
        // Sent before the walk of a large folder ended: the figures are a floor, and say so.
        `\`context\` is a dict of path -> text. Its folder was still being listed when this was sent: so far ${formatCount(meta.fileCount)} files, ` +
          `${formatCount(meta.totalBytes)} bytes, and more may come. The full figures come with your first observation, and \`context_meta()\` has them.`,
      ]
    : [
        `\`context\` is a ${meta.type === 'str' ? 'str' : 'dict of path -> text'} with ${about}${formatCount(meta.totalChars)} characters ` +
          `(${formatCount(meta.totalBytes)} bytes)${meta.type === 'dict' ? ` in ${formatCount(meta.fileCount)} files` : ''}.`,
      ];
  if (meta.mode === 'lazy') {
    // The model must know the mapping is lazy before it writes `"".join(context.values())`.
    lines.push(lazyModeLine(meta));
  } else if (meta.mode === 'eager') {
    lines.push('Mode: eager (every file is in memory).');
  } else if (partial) {
    lines.push('Mode: decided when the listing ends: eager (every file in memory) if the folder fits, else lazy (texts fetched when read; use search()). `context_meta()` says which.');
  }
  if (meta.format) lines.push(...formatLines(meta));
  if (meta.invalidUtf8Replacements > 0) {
    lines.push(`${formatCount(meta.invalidUtf8Replacements)} invalid UTF-8 sequences were replaced with U+FFFD.`);
  }
  if (meta.type === 'dict' && meta.files.length > 0) {
    lines.push(partial ? 'Files found so far (path: size):' : meta.approximate ? 'Files (path: size; characters may be fewer):' : 'Files (path: characters):');
    for (const file of meta.files) lines.push(`- ${file.path}: ${formatCount(file.chars)}`);
    if (meta.filesOmitted > 0) lines.push(`- ... and ${formatCount(meta.filesOmitted)} more (see context_meta())`);
  }
  if (!partial) lines.push(`It begins with: ${JSON.stringify(meta.prefix)}`);
  return lines.join('\n');
}

/** What the input was before it became text: the model should know a str was a .gz, and that app.log.2.gz, app.log.1 and app.log are one log. */
function formatLines(meta: ContextMetadata): string[] {
  const format = meta.format!;
  const lines: string[] = [];
  if (format.compression) lines.push(`The text was read decompressed from a ${format.compression}-compressed file; sizes and lines are those of the decompressed text.`);
  if (format.compressedFiles) lines.push(`${formatCount(format.compressedFiles)} of the files were read decompressed (.gz, .bz2, .xz, .zst): their keys keep the compressed name, their texts are the decompressed text.`);
  const sets = format.logSets ?? [];
  if (sets.length > 0) {
    lines.push(
      `Rotated logs: each of these is one log in several parts, and its parts come in \`context\` oldest first (app.log.2.gz, app.log.1, then app.log, as logrotate numbers them), so joining them in order reads the log as written:`,
    );
    for (const set of sets) lines.push(`- ${set.log}: ${formatCount(set.parts)} parts`);
    if (format.logSetsOmitted) lines.push(`- ... and ${formatCount(format.logSetsOmitted)} more sets`);
  }
  lines.push(...notebookFormatLines(format));
  if (format.pdf) lines.push(...pdfLines(format.pdf));
  if (format.pdfs) lines.push(...folderPdfLines(format.pdfs, meta.mode === 'lazy'));
  return lines;
}

/** A PDF: its pages are the keys, and references name the page. */
function pdfLines(pdf: NonNullable<InputFormat['pdf']>): string[] {
  const lines = [
    `The input is a PDF of ${formatCount(pdf.pages)} page${pdf.pages === 1 ? '' : 's'}, its text extracted page by page: \`context\` maps \`name.pdf#page=N\` to page N's text, in page order. ` +
      'Cite a page as `name.pdf#page=N`, or a line within it as `name.pdf#page=N:LINE` (lines of that page\'s text, from 1). Layout, images and scanned text are not in it.',
  ];
  if (pdf.textlessPages) lines.push(`Pages without text (scanned or images only; their text is empty): ${pdf.textlessPages}.`);
  return lines;
}

/** PDFs in a folder: one entry each, its pages under marker lines; references still name the page. */
function folderPdfLines(pdfs: NonNullable<InputFormat['pdfs']>, lazy: boolean): string[] {
  // Before an eager bind ends nothing is read yet, and everything will be: only a lazy folder reads PDFs when used.
  const read = !lazy || pdfs.read === pdfs.files ? '' : pdfs.read === 0 ? ' Their pages are not read yet: each is parsed when first used.' : ` ${formatCount(pdfs.read)} of them were read so far; the others are parsed when first used.`;
  const pages = pdfs.read > 0 ? ` The PDFs read have ${formatCount(pdfs.pages)} page${pdfs.pages === 1 ? '' : 's'}${pdfs.textlessPages ? `, ${formatCount(pdfs.textlessPages)} of them without text (scanned or images only)` : ''}.` : '';
  return [
    `${formatCount(pdfs.files)} of the files are PDFs, each read as its text, page by page: every page starts with a marker line \`<<< page N of M >>>\` (\`<<< page N of M: no text (scanned or images only) >>>\` when it has none).${pages}${read} ` +
      'Cite a line of a page as `path.pdf#page=N:L` (line L of page N, counted from the line after its marker, e.g. `docs/design.pdf#page=18:3`), or a whole page as `path.pdf#page=N`. Layout, images and scanned text are not in it.',
  ];
}

function lazyModeLine(meta: ContextMetadata): string {
  const budget = meta.cacheBudgetBytes ? `${formatCount(Math.round(meta.cacheBudgetBytes / (1024 * 1024)))} MB` : 'a bounded amount';
  return (
    `Mode: lazy. This folder is larger than the REPL holds at once: \`context\` is a read-only mapping whose file texts are fetched when read, and at most ${budget} of them are kept. ` +
    'Keys, len, `in`, get, items() and values() work (items/values stream file by file). Use `search(pattern, paths=[...])`, which runs on the host over every file at native speed, ' +
    'then read the files or `peek` the lines it points to; process files in groups (e.g. `list(context)[i:i+500]`) and hand groups to sub-calls. ' +
    'Anything that holds every text at once (joining all values, `dict(context)`) stops with ContextBudgetError.'
  );
}

/** Files named in a note, at most this many. */
const NOTE_FILES_MAX = 10;

/**
 * What the root learns with its first observation when `context` turned out other than it was first
 * told (it was told before binding): files left out as they were read, and the exact size.
 */
export function boundNote(shown: ContextMetadata, bound: ContextMetadata): string | undefined {
  if (!shown.approximate) return undefined;
  const parts: string[] = [];
  const left = bound.leftOut ?? [];
  if (left.length > 0) {
    const names = left.slice(0, NOTE_FILES_MAX).map((s) => `${s.path} (${s.reason})`).join(', ');
    parts.push(`${formatCount(left.length)} file${left.length === 1 ? ' was' : 's were'} left out when read: ${names}${left.length > NOTE_FILES_MAX ? `, and ${formatCount(left.length - NOTE_FILES_MAX)} more` : ''}.`);
  }
  if (shown.listing === 'partial' || bound.totalChars !== shown.totalChars || bound.fileCount !== shown.fileCount) {
    parts.push(`\`context\` holds ${formatCount(bound.totalChars)} characters${bound.type === 'dict' ? ` in ${formatCount(bound.fileCount)} files` : ''}.`);
  }
  // Left open in a first request sent before the walk ended.
  if (shown.listing === 'partial' && shown.mode === undefined && bound.mode) parts.push(bound.mode === 'lazy' ? lazyModeLine(bound) : 'Mode: eager (every file is in memory).');
  const textless = bound.format?.pdf?.textlessPages;
  if (textless && !shown.format?.pdf?.textlessPages) parts.push(`Pages without text (scanned or images only): ${textless}.`);
  if (bound.invalidUtf8Replacements > 0) parts.push(`${formatCount(bound.invalidUtf8Replacements)} invalid UTF-8 sequences were replaced with U+FFFD.`);
  return parts.length ? `(Now bound: ${parts.join(' ')})` : undefined;
}

/** Prior answers are clipped so that a long conversation cannot grow the root's window without bound. */
const PRIOR_ANSWER_MAX_CHARS = 2000;

export function initialMessages(
  facts: PromptFacts,
  question: string,
  meta: ContextMetadata,
  priorTurns: Array<{ question: string; answer: string }> = [],
  userCells: ReadonlyArray<{ code: string; observation: string }> = [],
): ChatMessage[] {
  const parts: string[] = [];
  if (priorTurns.length > 0) {
    parts.push('Earlier in this conversation, about the same `context`:');
    for (const turn of priorTurns) {
      parts.push(`Q: ${turn.question}`, `A: ${clip(turn.answer, PRIOR_ANSWER_MAX_CHARS)}`);
    }
    parts.push('');
  }
  if (userCells.length > 0) parts.push(userCellsNote(userCells), '');
  parts.push(`Question: ${question}`, '', describeContext(meta), '', 'Start by writing code to look at `context`.');
  return [
    { role: 'system', content: systemPrompt(facts) },
    { role: 'user', content: parts.join('\n') },
  ];
}

/** User cells shown to the root at most (the latest); their observations are truncated like the root's own. */
const USER_CELLS_MAX = 10;

/** The cells the user ran in the REPL since the last answer: what they looked at and what they left. */
export function userCellsNote(cells: ReadonlyArray<{ code: string; observation: string }>): string {
  const shown = cells.slice(-USER_CELLS_MAX);
  const parts = [
    `Since then the user ran ${formatCount(cells.length)} cell${cells.length === 1 ? '' : 's'} of their own in this REPL (the variables they set are in the session)${cells.length > shown.length ? `; the last ${shown.length}` : ''}:`,
  ];
  for (const cell of shown) parts.push('```repl\n' + cell.code + '\n```', cell.observation);
  return parts.join('\n');
}

/** Names listed in the replay note, at most this many. */
const NOTE_VARIABLES_MAX = 60;

/** A continued run: the REPL already holds what the earlier run's cells built. */
export function replayNote(cells: number, variables: string[]): string {
  const names = variables.slice(0, NOTE_VARIABLES_MAX).join(', ');
  const more = variables.length > NOTE_VARIABLES_MAX ? `, and ${formatCount(variables.length - NOTE_VARIABLES_MAX)} more (SHOW_VARS())` : '';
  return [
    `The REPL is the one the earlier run left: its ${formatCount(cells)} cell${cells === 1 ? ' was' : 's were'} run again, so its variables are there`,
    variables.length ? `(${names}${more}). Reuse them rather than recomputing.` : '(it defined none).',
  ].join(' ');
}

export const NO_CODE_BLOCK_MESSAGE =
  'Your reply had no ```repl code block, so nothing ran. Reply with one code block to continue, ' +
  'or finish with FINAL("...") or FINAL_VAR(name) inside a code block.';

export const EXTRA_BLOCKS_MESSAGE = (count: number): string =>
  `Your reply had ${count} code blocks; only the first one ran. Put all the code for a turn in one block.`;

export const EMPTY_FINAL_MESSAGE =
  'The final answer was empty, so the run continues. Give the answer text in FINAL("...") or FINAL_VAR(name).';

export const FINAL_IN_PROSE_MESSAGE = (kind: 'FINAL' | 'FINAL_VAR'): string =>
  `${kind}(...) was written outside a code block; it was accepted. Next time call it inside a \`\`\`repl block.`;

export const FALLBACK_BLOCK_MESSAGE = (kind: 'python' | 'bare'): string =>
  `Your reply had no \`\`\`repl block, so its first ${kind === 'python' ? '```python' : 'unlabelled ```'} block ran instead. Label the code to run as \`\`\`repl.`;

/** The last turn after a limit (docs/rlm-contract.md, "What each limit does"). */
export function lastTurnPrompt(limit: { limitKind: string; limit: number; message: string }): string {
  const what: Record<string, string> = {
    iterations: `You have used all ${limit.limit} turns.`,
    subCalls: `The run has used all ${limit.limit} of its sub-calls: llm_query and rlm_query now only return "[ERROR] limit: ...".`,
    consecutiveErrors: `Your last ${limit.limit} turns all ended in errors.`,
  };
  return [
    what[limit.limitKind] ?? `${limit.message}.`,
    'This is your last turn. Answer now from what you have already found: one ```repl block that ends with',
    'FINAL("...") or FINAL_VAR(name) (your variables are still there), or FINAL("...") on its own line.',
    'Say plainly what you could not verify.',
  ].join('\n');
}

/** Used when a reply is kept in the history without its code (prose-only turns). */
export function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  return `${text.slice(0, half)}\n[... ${formatCount(text.length - 2 * half)} characters omitted ...]\n${text.slice(-half)}`;
}

