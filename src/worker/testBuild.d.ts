// Replaced by the build (esbuild.mjs `define`): true in development builds, false in the shipped one.
declare const __RLM_TEST_BUILD__: boolean;
