// The lines around a cited line of a local file too large for the editor, read as a stream: only the
// window is kept, reading stops once the window is complete, and the file must be a regular file when
// opened (a FIFO or device named by a reference is refused at once instead of blocking the host).
import { openRegularFile } from '../context/localFileRead';
import { SpecialFileError } from '../context/contextErrors';
import { LineWindowCollector } from './lineWindowCollector';

const CHUNK_BYTES = 1024 * 1024;

/** Lines `line - radius` .. `endLine + radius` of the file at `abs`, clipped to the file. */
export async function readLineWindow(abs: string, line: number, endLine: number, radius: number, options: { chunkBytes?: number } = {}): Promise<{ firstLine: number; lastLine: number; text: string }> {
  const opened = await openRegularFile(abs, {});
  if (opened.kind === 'special') throw new SpecialFileError(abs, opened.special);
  if (opened.kind !== 'open') throw new SpecialFileError(abs, 'file that could not be opened as a regular file');
  const window = new LineWindowCollector(line, endLine, radius);
  const buffer = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES);
  try {
    for (;;) {
      const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0 || window.push(buffer.subarray(0, bytesRead))) break;
    }
  } finally {
    await opened.handle.close();
  }
  return window.result();
}
