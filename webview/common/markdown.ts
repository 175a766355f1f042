// Markdown for untrusted model and file text, rendered straight to DOM nodes.
// markdown-it parses with raw HTML disabled; we never feed its HTML string output to innerHTML.
// Instead each token becomes an element or a text node, so no string from the model can ever be
// parsed as markup. Links keep only safe schemes; images become links (no remote content under CSP).
// Control characters are made visible before parsing, so a terminal hyperlink (OSC 8) in an answer
// is shown as its escape text, and bare URLs are never linked (no linkify): only a Markdown link the
// text writes out, to a safe scheme, is clickable, with its target shown as its title.
import MarkdownIt from 'markdown-it';
import { visibleControls } from '../../src/shared/text/untrustedText';

/** The few DOM operations the renderer needs; the real `document` satisfies it, and so does a test fake. */
export interface MarkdownDocument {
  createElement(tag: string): MarkdownElement;
  createTextNode(text: string): MarkdownNode;
}
export type MarkdownNode = object;
export interface MarkdownElement extends MarkdownNode {
  appendChild(child: MarkdownNode): unknown;
  setAttribute(name: string, value: string): void;
}

/** The shape of the markdown-it tokens we read (kept local so the renderer is decoupled from its typings). */
interface MdToken {
  type: string;
  tag: string;
  nesting: number;
  content: string;
  info: string;
  attrs: Array<[string, string]> | null;
  children: MdToken[] | null;
  /** Set on the paragraphs of tight lists, which markdown-it renders without a <p>. */
  hidden: boolean;
}

const parser = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });

/** Elements we create from markdown-it's own tag names; anything else becomes a <span>. */
const ALLOWED_TAGS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'em', 'strong', 's', 'a',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'br', 'code', 'pre',
]);

const SAFE_LINK = /^(https?:|mailto:|#)/i;

/** True for URLs a rendered link may point to: http(s), mailto and in-page anchors only. */
export function isSafeHref(href: string): boolean {
  return SAFE_LINK.test(href.trim());
}

function attr(token: MdToken, name: string): string | undefined {
  return token.attrs?.find(([key]) => key === name)?.[1];
}

function openElement(doc: MarkdownDocument, token: MdToken): MarkdownElement {
  const tag = ALLOWED_TAGS.has(token.tag) ? token.tag : 'span';
  const el = doc.createElement(tag);
  if (tag === 'a') {
    const href = attr(token, 'href') ?? '';
    if (isSafeHref(href)) {
      el.setAttribute('href', href);
      el.setAttribute('title', href);
    }
  }
  if (tag === 'ol') {
    const start = attr(token, 'start');
    if (start && /^\d+$/.test(start)) el.setAttribute('start', start);
  }
  const style = attr(token, 'style');
  if ((tag === 'th' || tag === 'td') && style) {
    const align = /text-align:(left|right|center)/.exec(style)?.[1];
    if (align) el.setAttribute('align', align);
  }
  return el;
}

function codeBlock(doc: MarkdownDocument, text: string, info: string): MarkdownElement {
  const pre = doc.createElement('pre');
  const code = doc.createElement('code');
  const lang = info.trim().split(/\s+/)[0] ?? '';
  if (/^[\w+#-]{1,32}$/.test(lang)) code.setAttribute('class', `language-${lang}`);
  code.appendChild(doc.createTextNode(text));
  pre.appendChild(code);
  return pre;
}

function renderTokens(doc: MarkdownDocument, tokens: MdToken[], root: MarkdownElement): void {
  const stack: MarkdownElement[] = [root];
  const top = (): MarkdownElement => stack[stack.length - 1] ?? root;
  for (const token of tokens) {
    if (token.hidden && token.nesting !== 0) continue;
    if (token.nesting === 1) {
      const el = openElement(doc, token);
      top().appendChild(el);
      stack.push(el);
      continue;
    }
    if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    switch (token.type) {
      case 'inline':
        renderTokens(doc, token.children ?? [], top());
        break;
      case 'text':
      case 'html_inline':
      case 'html_block':
        top().appendChild(doc.createTextNode(token.content));
        break;
      case 'code_inline': {
        const code = doc.createElement('code');
        code.appendChild(doc.createTextNode(token.content));
        top().appendChild(code);
        break;
      }
      case 'fence':
      case 'code_block':
        top().appendChild(codeBlock(doc, token.content, token.info));
        break;
      // An answer is often plain text assembled in Python, one finding per line: a single line break
      // is kept as a break, as chat views do, rather than joined into one line as strict Markdown would.
      case 'softbreak':
      case 'hardbreak':
        top().appendChild(doc.createElement('br'));
        break;
      case 'hr':
        top().appendChild(doc.createElement('hr'));
        break;
      case 'image': {
        // No remote content: an image is shown as a link to its source, labelled with its alt text.
        const src = attr(token, 'src') ?? '';
        const alt = (token.children ?? []).map((c) => c.content).join('') || src;
        const el = doc.createElement('a');
        if (isSafeHref(src)) el.setAttribute('href', src);
        el.appendChild(doc.createTextNode(`[image: ${alt}]`));
        top().appendChild(el);
        break;
      }
      default:
        if (token.content) top().appendChild(doc.createTextNode(token.content));
    }
  }
}

/**
 * Renders `source` as markdown into `container` (appending). Raw HTML in the source stays visible
 * text; nothing is parsed as HTML.
 */
export function renderMarkdown(doc: MarkdownDocument, container: MarkdownElement, source: string): void {
  const tokens = parser.parse(visibleControls(source), {}) as unknown as MdToken[];
  renderTokens(doc, tokens, container);
}
