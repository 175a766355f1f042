// lineWindow.ts for text that arrives in pieces (a compressed file decoded as it is read): keeps only
// the lines of the window, so the slice around line 2,000,000 of a 3 GB log costs the window, not the
// log, and says when the window is complete so the caller can stop decoding there.

export class LineWindowCollector {
  private line = 1;
  private readonly parts: Uint8Array[] = [];
  private complete = false;
  readonly firstLine: number;
  private readonly lastWanted: number;

  /** Lines `line - radius` .. `endLine + radius`. */
  constructor(line: number, endLine: number, radius: number) {
    this.firstLine = Math.max(1, line - radius);
    this.lastWanted = Math.max(line, endLine) + radius;
  }

  /** Takes the next piece (copied where kept); true once the window's last line has ended. */
  push(piece: Uint8Array): boolean {
    let pos = 0;
    while (!this.complete && pos < piece.length) {
      const newline = piece.indexOf(0x0a, pos);
      const end = newline < 0 ? piece.length : newline + 1;
      // A copy: Buffer's slice() is a view, and a reader may reuse its buffer for the next piece.
      if (this.line >= this.firstLine) this.parts.push(Uint8Array.prototype.slice.call(piece, pos, end));
      if (newline < 0) break;
      if (this.line === this.lastWanted) this.complete = true;
      else this.line += 1;
      pos = end;
    }
    return this.complete;
  }

  /** The window's text (without its last newline) and the number of its last line; empty when the text is shorter. */
  result(): { firstLine: number; lastLine: number; text: string } {
    const text = new TextDecoder('utf-8').decode(Buffer.concat(this.parts)).replace(/\n$/, '');
    return { firstLine: this.firstLine, lastLine: text === '' ? this.firstLine - 1 : this.firstLine + text.split('\n').length - 1, text };
  }
}
