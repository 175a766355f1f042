// Injected into CommonJS bundles so that code written for ESM (`import.meta.url`) still gets its own file URL.
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
