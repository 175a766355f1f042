// A short fingerprint of the stdlib zip Pyodide mounts. A memory snapshot holds zipimport's cached
// directory of that zip (entry offsets), so restoring it over a different zip breaks every later
// import with "bad local file header"; the prelude key includes this fingerprint so such a snapshot is
// refused and replaced instead. The zip's central directory lists every entry's CRC, size and offset,
// so hashing it identifies the contents without reading the whole file.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;

export function stdlibIdentity(zipPath: string): string {
  const fd = openSync(zipPath, 'r');
  try {
    const size = fstatSync(fd).size;
    const tailLength = Math.min(size, EOCD_MIN + MAX_COMMENT);
    const tail = Buffer.alloc(tailLength);
    readSync(fd, tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - EOCD_MIN; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        eocd = i;
        break;
      }
    }
    const hash = createHash('sha256').update(String(size));
    if (eocd < 0) {
      // Not a zip we understand: the whole tail still tells two files apart.
      hash.update(tail);
    } else {
      const cdSize = tail.readUInt32LE(eocd + 12);
      const cdOffset = tail.readUInt32LE(eocd + 16);
      const cd = Buffer.alloc(Math.min(cdSize, size));
      readSync(fd, cd, 0, cd.length, Math.min(cdOffset, size - cd.length));
      hash.update(cd);
    }
    return hash.digest('hex').slice(0, 16);
  } finally {
    closeSync(fd);
  }
}
