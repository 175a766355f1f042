// Structural checks from the nbformat 4.5 JSON schema (nbformat.v4.5.schema.json): required keys,
// types, allowed keys per cell type, output shapes and cell ids. Returns every violation found.
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isMultiline = (v: unknown): boolean => typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string'));

const CELL_KEYS: Record<string, { required: string[]; allowed: string[] }> = {
  markdown: { required: ['id', 'cell_type', 'metadata', 'source'], allowed: ['id', 'cell_type', 'metadata', 'source', 'attachments'] },
  code: { required: ['id', 'cell_type', 'metadata', 'source', 'outputs', 'execution_count'], allowed: ['id', 'cell_type', 'metadata', 'source', 'outputs', 'execution_count'] },
  raw: { required: ['id', 'cell_type', 'metadata', 'source'], allowed: ['id', 'cell_type', 'metadata', 'source', 'attachments'] },
};

export function nbformatViolations(nb: unknown): string[] {
  const errors: string[] = [];
  if (!isObj(nb)) return ['notebook is not an object'];
  for (const key of Object.keys(nb)) if (!['metadata', 'nbformat', 'nbformat_minor', 'cells'].includes(key)) errors.push(`unexpected top-level key ${key}`);
  if (nb.nbformat !== 4) errors.push('nbformat must be 4');
  if (typeof nb.nbformat_minor !== 'number' || !Number.isInteger(nb.nbformat_minor) || nb.nbformat_minor < 5) errors.push('nbformat_minor must be an integer >= 5 (cell ids)');
  if (!isObj(nb.metadata)) errors.push('metadata must be an object');
  else {
    const ks = nb.metadata.kernelspec;
    if (ks !== undefined && (!isObj(ks) || typeof ks.name !== 'string' || typeof ks.display_name !== 'string')) errors.push('kernelspec needs name and display_name');
    const li = nb.metadata.language_info;
    if (li !== undefined && (!isObj(li) || typeof li.name !== 'string')) errors.push('language_info needs name');
  }
  if (!Array.isArray(nb.cells)) return [...errors, 'cells must be an array'];
  const ids = new Set<string>();
  nb.cells.forEach((cell, i) => {
    const at = `cells[${i}]`;
    if (!isObj(cell)) return void errors.push(`${at} is not an object`);
    const spec = CELL_KEYS[String(cell.cell_type)];
    if (!spec) return void errors.push(`${at}.cell_type ${String(cell.cell_type)} is not markdown, code or raw`);
    for (const key of spec.required) if (!(key in cell)) errors.push(`${at} lacks ${key}`);
    for (const key of Object.keys(cell)) if (!spec.allowed.includes(key)) errors.push(`${at} has key ${key}, not allowed for ${String(cell.cell_type)} cells`);
    if (typeof cell.id !== 'string' || !/^[a-zA-Z0-9-_]{1,64}$/.test(cell.id)) errors.push(`${at}.id must match ^[a-zA-Z0-9-_]+$ (1-64)`);
    else if (ids.has(cell.id)) errors.push(`${at}.id ${cell.id} is not unique`);
    else ids.add(cell.id);
    if (!isObj(cell.metadata)) errors.push(`${at}.metadata must be an object`);
    if (!isMultiline(cell.source)) errors.push(`${at}.source must be a string or a list of strings`);
    if (cell.cell_type === 'code') {
      if (!(cell.execution_count === null || (Number.isInteger(cell.execution_count) && (cell.execution_count as number) >= 0))) errors.push(`${at}.execution_count must be null or an integer >= 0`);
      if (!Array.isArray(cell.outputs)) errors.push(`${at}.outputs must be an array`);
      else cell.outputs.forEach((o, j) => errors.push(...outputViolations(o, `${at}.outputs[${j}]`)));
    }
  });
  return errors;
}

function outputViolations(o: unknown, at: string): string[] {
  if (!isObj(o)) return [`${at} is not an object`];
  switch (o.output_type) {
    case 'stream':
      return [
        ...(o.name === 'stdout' || o.name === 'stderr' ? [] : [`${at}.name must be stdout or stderr`]),
        ...(isMultiline(o.text) ? [] : [`${at}.text must be a multiline string`]),
        ...Object.keys(o).filter((k) => !['output_type', 'name', 'text'].includes(k)).map((k) => `${at} has extra key ${k}`),
      ];
    case 'error':
      return [
        ...(typeof o.ename === 'string' && typeof o.evalue === 'string' ? [] : [`${at} needs string ename and evalue`]),
        ...(Array.isArray(o.traceback) && o.traceback.every((s) => typeof s === 'string') ? [] : [`${at}.traceback must be a list of strings`]),
        ...Object.keys(o).filter((k) => !['output_type', 'ename', 'evalue', 'traceback'].includes(k)).map((k) => `${at} has extra key ${k}`),
      ];
    case 'display_data':
    case 'execute_result':
      return isObj(o.data) && isObj(o.metadata) ? [] : [`${at} needs data and metadata`];
    default:
      return [`${at}.output_type ${String(o.output_type)} is not valid`];
  }
}
