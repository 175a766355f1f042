// Imported first by extension.ts, so this line runs before the rest of the bundle is evaluated:
// activation time then covers loading the module as well as activate() itself.
export const moduleLoadStartedAt = performance.now();
