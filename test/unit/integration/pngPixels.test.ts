// The PNG reader the UI specs use to check what is drawn: every row filter PNG has, RGB and RGBA.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import { contrastRatio, countColour, decodePng } from '../../integration/harness/pngPixels';

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), body])) >>> 0, 0);
  return Buffer.concat([head, body, crc]);
}

/** Encodes `rows` (channels per pixel) with the given filter on each row, as an encoder would. */
function encode(rows: number[][], channels: 3 | 4, filters: number[]): Buffer {
  const width = rows[0]!.length / channels;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr[8] = 8;
  ihdr[9] = channels === 4 ? 6 : 2;
  const raw: number[] = [];
  rows.forEach((row, y) => {
    const filter = filters[y % filters.length]!;
    raw.push(filter);
    row.forEach((value, i) => {
      const left = i >= channels ? row[i - channels]! : 0;
      const up = y > 0 ? rows[y - 1]![i]! : 0;
      const upLeft = y > 0 && i >= channels ? rows[y - 1]![i - channels]! : 0;
      const p = left + up - upLeft;
      const paeth = Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - upLeft) ? left : Math.abs(p - up) <= Math.abs(p - upLeft) ? up : upLeft;
      const predictor = [0, left, up, (left + up) >> 1, paeth][filter]!;
      raw.push((value - predictor + 256) & 0xff);
    });
  });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from(raw))), chunk('IEND', Buffer.alloc(0))]);
}

test('every row filter decodes to the pixels encoded, RGB and RGBA', () => {
  for (const channels of [3, 4] as const) {
    const rows = Array.from({ length: 5 }, (_, y) => Array.from({ length: 4 * channels }, (_, i) => (y * 37 + i * 53 + (i % channels) * 101) % 256));
    const png = decodePng(encode(rows, channels, [0, 1, 2, 3, 4]));
    assert.equal(png.width, 4);
    assert.equal(png.height, 5);
    for (let y = 0; y < 5; y++) for (let x = 0; x < 4; x++) assert.deepEqual(png.at(x, y), rows[y]!.slice(x * channels, x * channels + 3), `pixel ${x},${y} (${channels} channels)`);
  }
});

test('pixels of a colour are counted within a tolerance', () => {
  const blue = [0, 120, 212];
  const dark = [24, 24, 24];
  const png = decodePng(encode([[...blue, ...dark, ...blue], [...dark, ...dark, 10, 130, 200]], 3, [0]));
  assert.equal(countColour(png, [0, 120, 212], 0), 2);
  assert.equal(countColour(png, [0, 120, 212], 15), 3);
});

test('the contrast ratio is WCAG\'s: black on white 21:1, a colour on itself 1:1', () => {
  assert.equal(contrastRatio([0, 0, 0], [255, 255, 255]).toFixed(1), '21.0');
  assert.equal(contrastRatio([0, 120, 212], [0, 120, 212]), 1);
  assert.throws(() => decodePng(Buffer.from('not a png at all')), /no PNG signature/);
});
