// The lines around a cited line of a file too large to open in the editor: a read-only slice with a
// few hundred lines of context either side, and the number of its first line so the view can say
// where in the file it is.

interface LineWindow {
  /** 1-based number of the slice's first line in the file. */
  firstLine: number;
  lastLine: number;
  text: string;
}

/**
 * Lines `line - radius` .. `endLine + radius` of `content`, clipped to the file. One pass over the bytes
 * up to the window's end; only the window is decoded. A line past the end gives the file's last lines.
 */
export function lineWindow(content: Uint8Array, line: number, endLine: number, radius: number): LineWindow {
  const first = Math.max(1, line - radius);
  const wantedLast = Math.max(endLine, line) + radius;
  let current = 1;
  let pos = 0;
  let start = 0;
  const length = content.length;
  while (current < first) {
    const next = content.indexOf(0x0a, pos);
    if (next < 0 || next + 1 >= length) break;
    pos = next + 1;
    current += 1;
  }
  start = pos;
  const firstLine = current;
  let end = length;
  while (current <= wantedLast) {
    const next = content.indexOf(0x0a, pos);
    if (next < 0) {
      end = length;
      break;
    }
    end = next;
    if (current === wantedLast || next + 1 >= length) break;
    pos = next + 1;
    current += 1;
  }
  const text = new TextDecoder('utf-8').decode(content.subarray(start, end));
  return { firstLine, lastLine: current, text };
}
