// A minimal DOM for plain-Node tests of code written against MarkdownDocument-style interfaces.
// serialize() escapes text, so a test can tell a real element from text that merely looks like one.
class FakeText {
  constructor(readonly text: string) {}
}

export class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly children: Array<FakeElement | FakeText> = [];
  constructor(readonly tag: string) {}
  appendChild(child: object): object {
    if (!(child instanceof FakeElement || child instanceof FakeText)) throw new Error('not a fake node');
    this.children.push(child);
    return child;
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  get textContent(): string {
    return this.children.map((c) => (c instanceof FakeText ? c.text : c.textContent)).join('');
  }
  findAll(tag: string): FakeElement[] {
    const out: FakeElement[] = [];
    for (const c of this.children) {
      if (c instanceof FakeElement) {
        if (c.tag === tag) out.push(c);
        out.push(...c.findAll(tag));
      }
    }
    return out;
  }
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function serialize(node: FakeElement | FakeText): string {
  if (node instanceof FakeText) return escape(node.text);
  const attrs = [...node.attributes].map(([k, v]) => ` ${k}="${escape(v)}"`).join('');
  return `<${node.tag}${attrs}>${node.children.map(serialize).join('')}</${node.tag}>`;
}

export const fakeDocument = {
  createElement: (tag: string): FakeElement => new FakeElement(tag),
  createTextNode: (text: string): FakeText => new FakeText(text),
};
