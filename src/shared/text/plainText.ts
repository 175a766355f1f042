// Markdown from a model reduced to plain text, for the places that cannot render it: notifications,
// the history list and one-line previews. No `**`, backticks, link syntax or heading marks survive.
// Pure and small on purpose (both the host and the webviews use it); it aims at what models write,
// not at every corner of CommonMark.

const FENCE = /^( {0,3})(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:\n\1\2[`~]*[ \t]*(?=\n|$)|$)/gm;

export function markdownToPlain(markdown: string): string {
  let text = markdown.replace(/\r\n?/g, '\n');
  // Fenced code keeps its content, without the fence lines.
  text = text.replace(FENCE, (_m, _indent: string, _fence: string, body: string) => body);
  text = text
    // Images and links: their text.
    .replace(/!\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/\[([^\]\n]+)\]\([^)\n]*\)/g, '$1')
    .replace(/\[([^\]\n]+)\]\[[^\]\n]*\]/g, '$1')
    // Headings, quotes, list bullets and rules at the start of a line.
    .replace(/^ {0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^ {0,3}>[ \t]?/gm, '')
    .replace(/^([ \t]*)[-*+][ \t]+(?=\S)/gm, '$1')
    .replace(/^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/gm, '')
    // Emphasis and code spans (strong before em, so "**x**" does not leave stars behind).
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?!\*)/g, '$1$2')
    .replace(/(^|[^\w_])_(?=\S)([^_\n]*?\S)_(?![\w_])/g, '$1$2')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, code: string) => code.trim())
    // Table pipes and separator rows.
    .replace(/^[ \t]*\|?([ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*:?-{3,}:?[ \t]*\|?[ \t]*\n?/gm, '')
    .replace(/^[ \t]*\|(.*)\|[ \t]*$/gm, (_m, row: string) => row.split('|').map((c) => c.trim()).join(' · '))
    // Backslash escapes.
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
  return text.replace(/\n{3,}/g, '\n\n').trim();
}

/** The first non-empty line of `markdown` as plain text, clipped to `max` characters. */
export function firstPlainLine(markdown: string, max = 200): string {
  const line = markdownToPlain(markdown).split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return clip(line, max);
}

/** The first sentence of plain prose (up to ". ", "? ", "! " or a line end), clipped to `max`. */
export function firstSentence(text: string, max = 80): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  const end = /[.!?:](?=\s|$)/.exec(line);
  const sentence = end ? line.slice(0, end.index + (line[end.index] === ':' ? 0 : 1)) : line;
  return clip(sentence.trim(), max);
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
