// Child process of extensionBench: loads a built dist/extension.js and calls activate() outside VS Code,
// against a stand-in `vscode` that answers every call with another stand-in. It measures our own
// load + activation cost (the part we control); VS Code's own extension-host overhead is not included.
import Module, { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
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
// Built-ins only reading a compressed file or a PDF needs: loaded when one is read, not at activation.
const ON_FIRST_USE = new Set(['zlib', 'worker_threads', 'stream/web']);
const builtinsOnFirstUse = new Set();
Module._load = function (request, ...rest) {
  if (request === 'vscode') return vscodeStandIn;
  const name = String(request).replace(/^node:/, '');
  if (ON_FIRST_USE.has(name)) builtinsOnFirstUse.add(name);
  return originalLoad.call(this, request, ...rest);
};

// CPU of the main thread (Linux: the scheduler's own count, in ns) and of the whole process (V8's helper
// threads too): on a shared machine wall time mostly measures the other processes.
function mainThreadCpuMs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

const bundle = process.argv[2];
const threadStarted = mainThreadCpuMs();
const cpuStarted = process.cpuUsage();
const started = performance.now();
const ext = require(bundle);
const loaded = performance.now();
const context = standIn('context');
const subscriptions = [];
const api = ext.activate(new Proxy(context, { get: (t, k) => (k === 'subscriptions' ? subscriptions : k === 'extensionPath' ? join(bundle, '..', '..') : t[k]) }));
const ended = performance.now();
const cpu = process.cpuUsage(cpuStarted);
const threadEnded = mainThreadCpuMs();
const heavy = Object.keys(require.cache).filter((p) => /node_modules[\\/](openai|@anthropic-ai|pyodide)[\\/]/.test(p) || /engine\.js$/.test(p));
// zod is bundled, so it is not in require.cache: its own global config shows that its code ran. The
// schemas (trajectory events, webview messages) are built when a file is read or a view posts, not here.
if ('__zod_globalConfig' in globalThis) heavy.push('zod (schemas built at activation)');
for (const name of builtinsOnFirstUse) heavy.push(`node:${name} (needed only once a compressed file or a PDF is read)`);
process.stdout.write(JSON.stringify({ loadMs: loaded - started, activateMs: ended - loaded, totalMs: ended - started, reportedMs: api.activationMs, cpuMs: (cpu.user + cpu.system) / 1000, mainThreadCpuMs: threadEnded === undefined ? undefined : threadEnded - threadStarted, heavy }));
