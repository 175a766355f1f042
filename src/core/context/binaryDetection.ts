// Decides whether a file is binary, from its name and its first bytes. Pure, so the CLI and the
// VS Code adapter make the same decision.

/** Bytes examined for NUL, as git does. */
export const BINARY_SNIFF_BYTES = 8192;

const BINARY_EXTENSIONS = new Set([
  // images and media
  'png', 'jpg', 'jpeg', 'gif', 'bmp', 'ico', 'icns', 'webp', 'tif', 'tiff', 'psd', 'avif', 'heic',
  'mp3', 'mp4', 'm4a', 'wav', 'ogg', 'flac', 'avi', 'mov', 'mkv', 'webm',
  // archives and packages
  'zip', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'tar', 'jar', 'war', 'vsix', 'whl', 'deb', 'rpm', 'dmg', 'iso',
  // compiled code and libraries
  'exe', 'dll', 'so', 'dylib', 'a', 'lib', 'o', 'obj', 'class', 'pyc', 'pyo', 'wasm', 'node', 'bin',
  // documents and fonts
  'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ttf', 'otf', 'woff', 'woff2', 'eot',
  // data stores
  'sqlite', 'sqlite3', 'db', 'parquet', 'npy', 'npz', 'pkl', 'pickle', 'onnx', 'pt', 'safetensors',
]);

/** True when the path's extension names a format that is never text. */
export function hasBinaryExtension(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot > 0 && BINARY_EXTENSIONS.has(name.slice(dot + 1));
}

/** True when the first 8 KB hold a NUL byte (text in UTF-8 never does). */
export function hasNulByte(bytes: Uint8Array): boolean {
  // indexOf is a native memchr: a byte loop in JS cost more than reading the file for small files.
  return bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) !== -1;
}

type BinaryReason = 'extension' | 'nul-byte';

/** Why a file is treated as binary, or undefined for text. `head` needs only the first 8 KB. */
export function binaryReason(path: string, head: Uint8Array): BinaryReason | undefined {
  if (hasBinaryExtension(path)) return 'extension';
  if (hasNulByte(head)) return 'nul-byte';
  return undefined;
}
