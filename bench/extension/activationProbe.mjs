// Child process of extensionBench: loads a built dist/extension.js and calls activate() outside VS Code,
// against a stand-in `vscode` that answers every call with another stand-in. It measures our own
// load + activation cost (the part we control); VS Code's own extension-host overhead is not included.
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

function standIn(path) {
  const fn = function () {};
  return new Proxy(fn, {
    get(_t, key) {
      if (key === Symbol.toPrimitive) return () => path;
      if (key === 'then') return undefined; // not a promise
      if (key === Symbol.hasInstance) return () => false; // no value is one of the stand-in classes
      if (key === 'fsPath' || key === 'path') return `/tmp/rlm-activation-probe/${path}`;
      if (key === 'isTrusted') return true;
      // Nothing is open at start-up: no editor, no tab, no folder (the sidebar reads them as it registers,
      // and clones what it keeps: a stand-in function cannot be cloned).
      if (key === 'activeTab' || key === 'activeTextEditor' || key === 'activeNotebookEditor' || key === 'workspaceFolders') return undefined;
      if (key === 'visibleTextEditors') return [];
      return standIn(`${path}.${String(key)}`);
    },
    apply: (_t, _this, args) => (typeof args[0] === 'function' ? standIn(`${path}()`) : standIn(`${path}()`)),
    construct: () => standIn(`new ${path}`),
    set: () => true,
  });
}

// The bundle copies the namespaces it uses off the module object, so they must be own properties.
const NAMESPACES = ['window', 'workspace', 'commands', 'env', 'extensions', 'languages', 'l10n', 'Uri', 'EventEmitter', 'Disposable', 'StatusBarAlignment', 'ProgressLocation', 'ConfigurationTarget', 'ViewColumn', 'FileType', 'CancellationError', 'CancellationTokenSource', 'RelativePattern', 'Position', 'Range', 'Selection', 'ThemeIcon', 'ThemeColor', 'TabInputText', 'TabInputCustom', 'TabInputNotebook', 'TabInputTextDiff', 'TabInputNotebookDiff'];
const vscodeStandIn = Object.fromEntries(NAMESPACES.map((name) => [name, standIn(name)]));
const originalLoad = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'vscode') return vscodeStandIn;
  return originalLoad.call(this, request, ...rest);
};

const bundle = process.argv[2];
const started = performance.now();
const ext = require(bundle);
const loaded = performance.now();
const context = standIn('context');
const subscriptions = [];
const api = ext.activate(new Proxy(context, { get: (t, k) => (k === 'subscriptions' ? subscriptions : k === 'extensionPath' ? join(bundle, '..', '..') : t[k]) }));
const ended = performance.now();
const heavy = Object.keys(require.cache).filter((p) => /node_modules[\\/](openai|@anthropic-ai|pyodide)[\\/]/.test(p) || /engine\.js$/.test(p));
process.stdout.write(JSON.stringify({ loadMs: loaded - started, activateMs: ended - loaded, totalMs: ended - started, reportedMs: api.activationMs, heavy }));
