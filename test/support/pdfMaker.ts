// Writes small, valid PDFs for tests: pages of text in Helvetica (one line per string), pages without
// text, a document encrypted with a password nobody knows, and a page tree that claims more pages
// than any document has. Byte offsets in the cross-reference table are computed, so pdf.js reads the
// file as written, without repairing it.

interface PdfPage {
  /** Lines of text drawn top-down; none for a page without text (a drawn rectangle instead, as a scan would be an image). */
  lines?: string[];
  /** A content stream already compressed with /FlateDecode (a deflate bomb: small here, huge inflated). */
  deflated?: Buffer;
}

interface PdfOptions {
  /** An /Encrypt dictionary whose user password is not empty: readers must ask for it. */
  encrypted?: boolean;
  /** Overrides the page tree's /Count (a "page bomb" claims millions). */
  claimedPages?: number;
}

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function contentOf(page: PdfPage): string {
  if (!page.lines || page.lines.length === 0) return '0.5 g 72 72 468 648 re f';
  const body = page.lines.map((line, i) => `${i === 0 ? '' : '0 -16 Td '}${pdfString(line)} Tj`).join('\n');
  return `BT /F1 12 Tf 72 720 Td\n${body}\nET`;
}

/** The bytes of a PDF with these pages. */
export function makePdf(pages: PdfPage[], options: PdfOptions = {}): Buffer {
  const objects: string[] = [];
  const pageIds: number[] = [];
  // 1: catalog, 2: page tree, 3: font; then a page and its content stream per page.
  const firstPage = 4;
  pages.forEach((_, i) => pageIds.push(firstPage + i * 2));
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${options.claimedPages ?? pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((page, i) => {
    const id = firstPage + i * 2;
    objects[id] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    if (page.deflated) {
      // Bytes carried as latin1, one char per byte, like the rest of the file.
      objects[id + 1] = `<< /Length ${page.deflated.length} /Filter /FlateDecode >>\nstream\n${page.deflated.toString('latin1')}\nendstream`;
      return;
    }
    const content = contentOf(page);
    objects[id + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  let encryptId: number | undefined;
  if (options.encrypted) {
    encryptId = objects.length;
    // RC4 40-bit, revision 2; /O and /U are not derived from any password, so no password opens it.
    const hex = (seed: number) => Array.from({ length: 32 }, (_, i) => ((i * 37 + seed) & 0xff).toString(16).padStart(2, '0')).join('');
    objects[encryptId] = `<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O <${hex(11)}> /U <${hex(99)}> >>`;
  }
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  const id = '<0123456789abcdef0123456789abcdef>';
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R${encryptId ? ` /Encrypt ${encryptId} 0 R /ID [${id} ${id}]` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
