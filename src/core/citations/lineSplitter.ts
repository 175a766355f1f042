// Cuts bytes that arrive in chunks into lines, as search() and the citations count them: a newline
// ends a line, a trailing newline does not start another, and an empty input has no lines. A line cut
// by a chunk boundary is carried into the next chunk, up to a cap: past it, only the line's first
// `maxLineBytes` are kept and the line is marked cut. That bounds memory when a 2 GB file has no
// newline at all, at the cost of not matching such a line's text (coverage) past its first bytes.

/** One line: `bytes[start, end)` without its newline, valid only during the call (the buffer is reused). */
type LineHandler = (bytes: Uint8Array, start: number, end: number, cut: boolean) => void;

const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

export class LineSplitter {
  private carry = new Uint8Array(0);
  private carried = 0;
  /** The line in `carry` grew past the cap: its later bytes are dropped. */
  private cut = false;
  /** Bytes pushed since the last line ended (so a line of only dropped bytes still counts). */
  private pending = false;

  constructor(
    private readonly onLine: LineHandler,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline < 0) {
        this.keep(chunk, start, chunk.length);
        return;
      }
      if (this.pending) {
        this.keep(chunk, start, newline);
        this.flush();
      } else {
        this.onLine(chunk, start, newline, false);
      }
      start = newline + 1;
    }
  }

  /** The last line, when the input does not end with a newline. */
  end(): void {
    if (this.pending) this.flush();
  }

  private keep(chunk: Uint8Array, start: number, end: number): void {
    this.pending = true;
    const room = this.maxLineBytes - this.carried;
    const take = Math.min(room, end - start);
    if (take < end - start) this.cut = true;
    if (take <= 0) return;
    if (this.carried + take > this.carry.length) {
      const grown = new Uint8Array(Math.min(this.maxLineBytes, Math.max(this.carry.length * 2, this.carried + take, 256)));
      grown.set(this.carry.subarray(0, this.carried));
      this.carry = grown;
    }
    this.carry.set(chunk.subarray(start, start + take), this.carried);
    this.carried += take;
  }

  private flush(): void {
    this.onLine(this.carry, 0, this.carried, this.cut);
    this.carried = 0;
    this.cut = false;
    this.pending = false;
    // A carry grown for one long line is not kept for the rest of the input.
    if (this.carry.length > 64 * 1024) this.carry = new Uint8Array(0);
  }
}
