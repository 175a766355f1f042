// Which compressed files are read as the text they hold: a single log or text compressed with gzip,
// bzip2, xz or zstd. Decided by the name (as binaries are), then held to it by the magic bytes when
// read, so a file named .gz that is not gzip is said to be unreadable, not decoded as something else.
// Archives (.tar.gz, .tgz, .tar.xz ...) are many files in one: they stay binary.

export type Compression = 'gzip' | 'bzip2' | 'xz' | 'zstd';

const BY_EXTENSION: Readonly<Record<string, Compression>> = { gz: 'gzip', bz2: 'bzip2', xz: 'xz', zst: 'zstd' };

const MAGIC: Readonly<Record<Compression, readonly number[]>> = {
  gzip: [0x1f, 0x8b],
  bzip2: [0x42, 0x5a, 0x68],
  xz: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00],
  zstd: [0x28, 0xb5, 0x2f, 0xfd],
};

/** The compression the file's name says it holds one text in, or undefined (plain, or an archive). */
export function compressionOf(path: string): Compression | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const format = BY_EXTENSION[name.slice(dot + 1)];
  if (!format) return undefined;
  // app.tar.gz is an archive of files, not one text.
  if (name.slice(0, dot).endsWith('.tar')) return undefined;
  return format;
}

/** True when `head` starts with the format's magic bytes. */
export function hasMagic(format: Compression, head: Uint8Array): boolean {
  const magic = MAGIC[format];
  return head.byteLength >= magic.length && magic.every((byte, i) => head[i] === byte);
}
