// Imported by the PDF worker before pdf.js (imports run in order): pdf.js's rendering code builds one
// DOMMatrix when it loads, and Node has none (pdf.js would take it from an optional native canvas
// package, which is not shipped). Text extraction never renders, so an empty class is enough for the
// module to load; any rendering call on it would fail loudly (no methods), never draw wrongly.
const scope = globalThis as { DOMMatrix?: unknown };
if (scope.DOMMatrix === undefined) {
  scope.DOMMatrix = class DOMMatrixUnavailable {};
}
