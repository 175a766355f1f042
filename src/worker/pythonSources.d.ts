// Python sources are bundled as text (esbuild's `text` loader; scripts/pyTextRequire.cjs under tsx).
/* eslint-disable no-restricted-exports -- a text loader's module has exactly one, default, export */
declare module '*.py' {
  const source: string;
  export default source;
}
