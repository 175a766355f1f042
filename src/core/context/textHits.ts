// The hits of a JavaScript RegExp in one file's text, in Python's shape. Every function here is also
// run inside the regex worker (regexWorker.ts), whose source is these functions' own text: each must
// stand alone, using only its arguments and the functions below (no module constants, no imports).

/** The line of a hit, clipped as Python clips it (src/worker/python/model_api.py, SEARCH_LINE_MAX = 300): from a third before the hit. */
export function clipLine(text: string, s: number): string {
  const lineMax = 300;
  let ls = text.lastIndexOf('\n', s - 1) + 1;
  let le = text.indexOf('\n', s);
  if (le < 0) le = text.length;
  if (le - ls > lineMax) {
    ls = Math.max(ls, s - Math.floor(lineMax / 3));
    le = Math.min(le, ls + lineMax);
  }
  return text.slice(ls, le);
}

export function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** Python counts code points; RegExp indexes UTF-16 units: each low surrogate is one unit too many. */
export function countLowSurrogates(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n++;
  }
  return n;
}

/** Up to `maxHits` hits of `rx` (flag g) in `text`; `more` when another hit follows the last one kept. */
export function findHits(rx: RegExp, text: string, path: string, maxHits: number): { hits: Array<{ path: string; line: number; start: number; text: string }>; more: boolean } {
  const hits: Array<{ path: string; line: number; start: number; text: string }> = [];
  rx.lastIndex = 0;
  let line = 1;
  let counted = 0;
  let surrogates = 0;
  let surrogatesAt = 0;
  for (let m = rx.exec(text); m; m = rx.exec(text)) {
    if (hits.length >= maxHits) return { hits, more: true };
    if (m[0].length === 0) rx.lastIndex += 1;
    const s = m.index;
    line += countNewlines(text, counted, s);
    counted = s;
    surrogates += countLowSurrogates(text, surrogatesAt, s);
    surrogatesAt = s;
    hits.push({ path, line, start: s - surrogates, text: clipLine(text, s) });
  }
  return { hits, more: false };
}
