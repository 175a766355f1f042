// Reads the pixels of a PNG screenshot (8-bit RGB or RGBA, not interlaced: what Chromium writes), so
// a spec can check what is drawn and not only what the style sheet says: whether an image area is
// drawn or one flat colour, and a focus ring's colour and contrast on screen.
import { inflateSync } from 'node:zlib';

interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row by row. */
  data: Uint8Array;
  /** [r, g, b] at x, y. */
  at(x: number, y: number): [number, number, number];
}

type Rgb = readonly [number, number, number];

class UnsupportedPngError extends Error {
  constructor(readonly detail: string) {
    super(`This PNG cannot be read here: ${detail}`);
    this.name = 'UnsupportedPngError';
  }
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(png: Buffer): Pixels {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new UnsupportedPngError('no PNG signature');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      const colour = body[9];
      const interlace = body[12];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) throw new UnsupportedPngError(`bit depth ${depth}, colour type ${colour}, interlace ${interlace}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  if (!channels) throw new UnsupportedPngError('no IHDR chunk');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? rows[y * stride + x - channels]! : 0;
      const up = y > 0 ? rows[(y - 1) * stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? rows[(y - 1) * stride + x - channels]! : 0;
      const value = line[x]!;
      const predicted = filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : NaN;
      if (Number.isNaN(predicted)) throw new UnsupportedPngError(`row ${y} has filter ${filter}`);
      rows[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) data[i * 4 + c] = rows[i * channels + c]!;
    data[i * 4 + 3] = channels === 4 ? rows[i * channels + 3]! : 255;
  }
  return { width, height, data, at: (x, y) => [data[(y * width + x) * 4]!, data[(y * width + x) * 4 + 1]!, data[(y * width + x) * 4 + 2]!] };
}

/** How many pixels are within `tolerance` (per channel) of `rgb`. */
export function countColour(pixels: Pixels, rgb: Rgb, tolerance = 24): number {
  let count = 0;
  for (let y = 0; y < pixels.height; y++) {
    for (let x = 0; x < pixels.width; x++) {
      const [r, g, b] = pixels.at(x, y);
      if (Math.abs(r - rgb[0]) <= tolerance && Math.abs(g - rgb[1]) <= tolerance && Math.abs(b - rgb[2]) <= tolerance) count++;
    }
  }
  return count;
}

/** WCAG contrast ratio of two sRGB colours. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** How often each colour occurs, most frequent first ("#rrggbb"). */
export function colourCounts(pixels: Pixels): Array<{ colour: string; count: number }> {
  const counts = new Map<string, number>();
  for (let i = 0; i < pixels.width * pixels.height; i++) {
    const hex = `#${[0, 1, 2].map((c) => pixels.data[i * 4 + c]!.toString(16).padStart(2, '0')).join('')}`;
    counts.set(hex, (counts.get(hex) ?? 0) + 1);
  }
  return [...counts].map(([colour, count]) => ({ colour, count })).sort((a, b) => b.count - a.count);
}

/** Relative luminance (0 black .. 1 white) of "#rrggbb", "rgb(r, g, b)" or [r, g, b]. */
export function luminance(colour: string | Rgb): number {
  const parts = typeof colour !== 'string' ? [...colour] : colour.startsWith('#') ? [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16)) : (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  const [r, g, b] = parts.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
