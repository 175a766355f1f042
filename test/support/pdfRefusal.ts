// The PdfReadError a PDF read ends with, or a failed assertion when it succeeds or fails otherwise.
import assert from 'node:assert/strict';
import { PdfReadError } from '../../src/core/context/pdfErrors';

export async function pdfRefusal(promise: Promise<unknown>): Promise<PdfReadError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PdfReadError, String(error));
    return error;
  }
  assert.fail('expected a PdfReadError');
}
