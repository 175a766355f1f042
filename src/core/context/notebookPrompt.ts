// What the root is told when the input is a Jupyter notebook (or a folder holding some): how the text
// form is laid out, and how to cite a cell. Constant size, whatever the notebook holds.
import { formatCount } from '../../shared/text/format';
import type { InputFormat } from './contextTypes';

const LAYOUT =
  'Each cell starts with a marker line `<<< cell N: kind, In [count] >>>` (N counts cells from 1), then its source as written; ' +
  'each output follows under `<<< cell N output K: … >>>` (long text outputs keep their head and tail; images and other binary outputs are named, not included).';
const CITE = 'Cite a line of a cell\'s source as `name.ipynb#cell=N:L` (line L of cell N\'s source, e.g. `analysis.ipynb#cell=3:2`, or `#cell=3:2-5` for lines 2-5), or a whole cell as `name.ipynb#cell=N`.';

export function notebookFormatLines(format: InputFormat): string[] {
  const lines: string[] = [];
  const nb = format.notebook;
  if (nb) {
    const kinds = [`${formatCount(nb.code)} code`, `${formatCount(nb.markdown)} markdown`, ...(nb.raw ? [`${formatCount(nb.raw)} raw`] : [])].join(', ');
    const extras = [nb.binaryOutputs ? `${formatCount(nb.binaryOutputs)} image or binary outputs named, not included` : '', nb.truncatedOutputs ? `${formatCount(nb.truncatedOutputs)} long text outputs cut to head and tail` : ''].filter(Boolean).join('; ');
    lines.push(`The text is a Jupyter notebook${nb.language ? ` (${nb.language})` : ''} in text form: ${formatCount(nb.cells)} cells (${kinds})${extras ? `; ${extras}` : ''}.`);
  }
  if (format.notebooks) lines.push(`${formatCount(format.notebooks)} of the files are Jupyter notebooks (.ipynb), each read as its text form, not its JSON.`);
  if (nb || format.notebooks) lines.push(LAYOUT, CITE);
  return lines;
}

/**
 * The notebook part of the input's format in words, for `rlm show`, the view's header and exports
 * ("a Jupyter notebook, 12 cells: 8 code, 4 markdown"). From a recorded file (hostile): only numbers
 * and a short string are used.
 */
export function describeNotebookFormat(format: InputFormat): string[] {
  const parts: string[] = [];
  const nb = format.notebook as Partial<Record<keyof NonNullable<InputFormat['notebook']>, unknown>> | undefined;
  const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
  if (nb && typeof nb === 'object' && count(nb.cells) !== undefined) {
    const kinds = (['code', 'markdown', 'raw'] as const).map((k) => (count(nb[k]) ? `${formatCount(count(nb[k])!)} ${k}` : '')).filter(Boolean);
    const language = typeof nb.language === 'string' ? ` (${nb.language.slice(0, 40)})` : '';
    parts.push(`a Jupyter notebook${language}, ${formatCount(count(nb.cells)!)} cell${count(nb.cells) === 1 ? '' : 's'}${kinds.length ? `: ${kinds.join(', ')}` : ''}`);
  }
  const notebooks = count(format.notebooks);
  if (notebooks) parts.push(`${formatCount(notebooks)} Jupyter notebook${notebooks === 1 ? '' : 's'} read as text`);
  return parts;
}
