// How a reference of an answer is written wherever it is shown (the trajectory view, the sidebar chat,
// `rlm show`, exports, the agent tool's result): `src/a.ts:12-14`, or for a Jupyter notebook in its
// cells' terms, `analysis.ipynb#cell=3:2` (cell 3, line 2 of its source), `#cell=3` for a cell's
// outputs or the whole cell, `#cell=3-5` across cells. Records are hostile: a `notebookCell` that is not
// made of positive whole numbers is ignored and the line form is used. No `vscode` or DOM import.

export interface ReferenceLike {
  path: string;
  line: number;
  endLine?: number;
  notebookCell?: { cell: number; line?: number; endLine?: number; endCell?: number };
}

const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

/** The cell part (`#cell=3:2-4`), or undefined when the reference has none (or a malformed one). */
export function cellAnchor(reference: ReferenceLike): string | undefined {
  const c = reference.notebookCell;
  if (!c || typeof c !== 'object' || !whole(c.cell)) return undefined;
  if (whole(c.endCell) && c.endCell !== c.cell) return `#cell=${c.cell}-${c.endCell}`;
  if (!whole(c.line)) return `#cell=${c.cell}`;
  return `#cell=${c.cell}:${c.line}${whole(c.endLine) && c.endLine !== c.line ? `-${c.endLine}` : ''}`;
}

export function referenceLabel(reference: ReferenceLike): string {
  const anchor = cellAnchor(reference);
  if (anchor) return `${reference.path}${anchor}`;
  return `${reference.path}:${reference.line}${reference.endLine !== undefined ? `-${reference.endLine}` : ''}`;
}
