// What an `@rlm` chat request asks about, decided from its slash command, prompt and references,
// without `vscode`: `/file` the active editor or tab, `/folder <path>` a folder, `#file` and other
// references the things referenced, anything else the workspace.

export type ChatTargetPlan =
  | { kind: 'workspace'; question: string }
  | { kind: 'file'; question: string }
  | { kind: 'folder'; path: string; question: string }
  | { kind: 'references'; question: string }
  /**
   * `#file:retry.ts` typed as plain text (no completion made it a reference, as in an editor without
   * Copilot): the workspace files named, resolved by name when the run starts.
   */
  | { kind: 'typedFiles'; names: string[]; question: string }
  /** The request cannot run as typed; `message` says how to ask instead. */
  | { kind: 'usage'; message: string };

interface PromptReference {
  /** Where the reference sits in the prompt (`#file:a.ts`), when it was typed there. */
  range?: [number, number];
  /** A short name for it in the question, e.g. the file name. */
  label: string;
}

/** References VS Code adds by itself (`vscode.implicit.viewport`, `.selection`, `.file`), not typed by the user. */
export function isImplicitReference(id: string): boolean {
  return id === 'vscode.implicit' || id.startsWith('vscode.implicit.');
}

/** The prompt with each typed reference replaced by its name, so the question still reads naturally. */
export function questionText(prompt: string, references: readonly PromptReference[]): string {
  const typed = references.filter((r): r is PromptReference & { range: [number, number] } => r.range !== undefined).sort((a, b) => b.range[0] - a.range[0]);
  let text = prompt;
  for (const ref of typed) text = `${text.slice(0, ref.range[0])}${ref.label}${text.slice(ref.range[1])}`;
  return text.replace(/\s+/g, ' ').trim();
}

/** `/folder "my dir" question` or `/folder src/core question`: the path, then the question. */
function splitFolderArgument(prompt: string): { path: string; rest: string } {
  const text = prompt.trim();
  const quoted = /^(["'])(.+?)\1\s*(.*)$/s.exec(text);
  if (quoted) return { path: quoted[2] ?? '', rest: quoted[3] ?? '' };
  const [path = '', ...rest] = text.split(/\s+/);
  return { path, rest: rest.join(' ') };
}

/** A typed `#file:NAME` (or `#file:"my file.ts"`) the chat did not turn into a reference. */
interface TypedFile {
  name: string;
  range: [number, number];
}

/** `#file:` mentions typed as text, outside the ranges of the chat's own references. */
export function typedFileMentions(prompt: string, references: readonly PromptReference[]): TypedFile[] {
  const out: TypedFile[] = [];
  const covered = (at: number): boolean => references.some((r) => r.range !== undefined && at >= r.range[0] && at < r.range[1]);
  for (const match of prompt.matchAll(/(?<![\w#])#file:(?:"([^"]+)"|'([^']+)'|(\S+))/g)) {
    const at = match.index ?? 0;
    if (covered(at)) continue;
    // "#file:retry.ts?" or "(#file:a.ts)": the sentence's punctuation is not part of the name.
    const raw = match[1] ?? match[2] ?? (match[3] ?? '').replace(/[?!,;:)\]}>"'`]+$/, '').replace(/\.+$/, '');
    if (raw === '') continue;
    const length = match[1] !== undefined || match[2] !== undefined ? match[0].length : '#file:'.length + raw.length;
    out.push({ name: raw, range: [at, at + length] });
  }
  return out;
}

const EXAMPLE = 'for example "@rlm where is the retry logic?", "@rlm /file summarise this", or "@rlm /folder src/core which errors can escape?"';

export function planChatRequest(input: { command: string | undefined; prompt: string; references: readonly PromptReference[] }): ChatTargetPlan {
  const { command, references } = input;
  if (command === 'folder' && references.length === 0) {
    const { path, rest } = splitFolderArgument(input.prompt);
    if (path === '') return { kind: 'usage', message: `Name the folder after /folder, then the question: ${EXAMPLE}.` };
    if (rest.trim() === '') return { kind: 'usage', message: `Add a question after the folder "${path}": ${EXAMPLE}.` };
    return { kind: 'folder', path, question: rest.trim() };
  }
  const question = questionText(input.prompt, references);
  if (question === '') return { kind: 'usage', message: `Type a question after @rlm: ${EXAMPLE}.` };
  if (command === 'file') return { kind: 'file', question };
  if (references.length > 0) return { kind: 'references', question };
  const typed = typedFileMentions(input.prompt, references);
  if (typed.length > 0) {
    const text = questionText(input.prompt, typed.map((t) => ({ range: t.range, label: t.name })));
    return { kind: 'typedFiles', names: [...new Set(typed.map((t) => t.name))], question: text };
  }
  return { kind: 'workspace', question };
}
