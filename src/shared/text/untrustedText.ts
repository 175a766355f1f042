// Model and file text is attacker-controlled. These turn it into text that stays inert where it goes:
// a terminal (no escape sequences: no clear-screen, retitling, hyperlinks or cursor moves that hide
// lines) and Markdown (no HTML, no links to other schemes, no images, no fence that breaks out).

/**
 * C0 controls except newline and tab, a carriage return not followed by a newline (it would overwrite
 * the line), DEL, C1 controls (0x9b is an escape introducer on its own), and the bidirectional controls
 * that reorder what a reader sees (Trojan Source).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

function escapeControl(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === '\r') return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Control characters made visible as `\x1b`, `\r`, `\u202e`; newlines and tabs stay. */
export function visibleControls(text: string): string {
  return text.replace(CONTROLS, escapeControl);
}

/**
 * Text for a VS Code notification (showInformationMessage and friends, a progress title): those render
 * `[label](command:…)`, `(https:…)` and `(file:…)` as links, and a click on a command link runs the
 * command with its arguments (the progress notification's own Stop link relies on it). Model and file
 * text reaches notifications (an answer's first line, a recorded reference's path, a server's error),
 * so no `](` survives: it is written `] (`, which reads the same and links nothing. Controls are made
 * visible. The result says what the text says; it is for notifications, never for Markdown.
 */
export function noticeText(text: string): string {
  return visibleControls(text).replace(/\]\(/g, '] (');
}

/**
 * Text for a quick pick's label, description or detail: controls made visible, and
 * `$(name)` (which VS Code draws as an icon in quick picks) escaped, so a question cannot dress itself in
 * the workbench's icons.
 */
export function pickText(text: string): string {
  return visibleControls(text).replace(/\$\(/g, '\\$(');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

const SAFE_SCHEMES = /^(https?|file):/i;

/**
 * Model text for a Markdown view that shows it as the model wrote it (the chat's answers): HTML is
 * escaped, images are shown as their text, links survive only to http(s) and file URLs, and control
 * characters are visible (a terminal hyperlink shows as `\x1b]8;;http://…`, never as a link).
 * Headings, fences, emphasis and lists still render.
 */
export function linkSafeMarkdown(text: string): string {
  let out = visibleControls(text).replace(/[&<>]/g, (ch) => HTML_ESCAPES[ch]!);
  // Images: never loaded (a remote image is a beacon), shown as text; every `![` is escaped, so no
  // image syntax survives, complete or not.
  out = out.replace(/!\[([^\]\n]*)\]\(([^)\n]*)\)/g, (_m, alt: string, url: string) => `\\!\\[${alt}\\]\\(${url}\\)`);
  out = out.replace(/(^|[^\\])!\[/g, '$1\\!\\[');
  // Inline links: kept only to safe schemes (relative links have none and stay).
  out = out.replace(/\[([^\]\n]*)\]\(\s*([^)\s\n]*)([^)\n]*)\)/g, (whole, label: string, url: string, rest: string) =>
    /^[a-z][a-z0-9+.-]*:/i.test(url) && !SAFE_SCHEMES.test(url) ? `\\[${label}\\]\\(${url}${rest}\\)` : whole,
  );
  // Reference definitions to unsafe schemes: the brackets are escaped, so nothing links to them.
  out = out.replace(/^( {0,3})\[([^\]\n]+)\]:(\s*)(\S+)/gm, (whole, indent: string, label: string, gap: string, url: string) =>
    /^[a-z][a-z0-9+.-]*:/i.test(url) && !SAFE_SCHEMES.test(url) ? `${indent}\\[${label}\\]:${gap}${url}` : whole,
  );
  return out;
}

/**
 * Text for a Markdown document that must render as written: what linkSafeMarkdown does, and lines
 * that would open a code fence or make a heading are escaped. Emphasis, lists and code spans still render.
 */
export function markdownText(text: string): string {
  let out = linkSafeMarkdown(text);
  // A fence inside the text would swallow the rest of the document: escape its first character.
  out = out.replace(/^( {0,3})(`{3,}|~{3,})/gm, (_m, indent: string, fence: string) => `${indent}\\${fence}`);
  // Headings would pass model text off as the document's own sections: shown as text.
  out = out.replace(/^( {0,3})(#{1,6})(?=\s|$)/gm, (_m, indent: string, marks: string) => `${indent}\\${marks}`);
  out = out.replace(/^( {0,3})(=+|-{2,})[ \t]*$/gm, (_m, indent: string, line: string) => `${indent}\\${line}`);
  return out;
}

/** A fenced block that no backtick run inside `text` can close; the text inside is shown as is (but for controls). */
export function fencedBlock(text: string, lang = ''): string {
  const body = visibleControls(text).replace(/\n$/, '');
  let longest = 0;
  for (const match of body.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${body}\n${fence}`;
}

// JSON.stringify escapes C0 controls but leaves DEL, the C1 range and the bidirectional controls raw;
// these stand only inside strings in JSON text, so replacing them with \u escapes keeps it exact JSON.
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify whose text carries no raw control character, so printing it to a terminal is inert; it parses to the same value. */
export function inertJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(JSON_RAW, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
