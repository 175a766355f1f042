// Layer 3 where most users run the extension, none of which can run here: the macOS Seatbelt profile and
// the Windows launch are checked as the text and arguments they generate; Electron's part is the note
// and the one environment variable (whether its Node honours the permission model is probed at start).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planLaunch } from '../../../../src/core/repl/replLaunch';
import type { LaunchInputs } from '../../../../src/core/repl/replLaunch';
import { MACOS_PROFILE } from '../../../../src/core/repl/macosProfile';

const mac: LaunchInputs = {
  distDir: '/Users/ana/.vscode/extensions/rlm-tools.rlm-vscode-0.1.0/dist', usePermissionModel: true, useOsIsolation: true, isElectron: true,
  electronVersion: '37.2.0', platform: 'darwin', execPath: '/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper (Plugin).app/Contents/MacOS/Code Helper (Plugin)',
  nodeFlags: new Set(['--permission']), which: (p) => `/usr/bin/${p}`,
};

/** The profile's rules, one per line, in order (the last match wins in Seatbelt). */
const rules = MACOS_PROFILE.split('\n');

test('macOS: sandbox-exec runs the runtime under the profile, with every path passed as a parameter, never in the text', () => {
  const plan = planLaunch(mac);
  assert.equal(plan.os.kind, 'macos-sandbox');
  assert.equal(plan.command, '/usr/bin/sandbox-exec');
  assert.deepEqual(plan.args.slice(0, 8), [
    '-p', MACOS_PROFILE,
    '-D', `RLM_BUNDLE=${mac.distDir}`,
    // An Electron helper needs its whole outermost .app (frameworks, resources), and nothing else of /Applications.
    '-D', 'RLM_RUNTIME=/Applications/Visual Studio Code.app',
    '-D', `RLM_EXEC=${mac.execPath}`,
  ]);
  assert.equal(plan.args[8], mac.execPath);
  assert.equal(plan.args.at(-1), `${mac.distDir}/replProcess.js`);
  assert.ok(!MACOS_PROFILE.includes('/Users') && !MACOS_PROFILE.includes('Visual Studio'), 'no path of this machine is spliced into the profile');
  assert.deepEqual(plan.env, { ELECTRON_RUN_AS_NODE: '1' });
  assert.ok(plan.notes.some((n) => /Electron 37\.2\.0.*probed at start, not assumed/.test(n)), plan.notes.join(' | '));
});

test('macOS profile: no network, no write, no program, and no file contents outside the bundle, the runtime and the system libraries', () => {
  assert.equal(rules[0], '(version 1)');
  const at = (rule: string) => rules.indexOf(rule);
  assert.ok(at('(deny network*)') > at('(allow default)'), 'the network is denied after the default allow');
  assert.ok(!rules.some((r) => /\(allow network/.test(r)), 'nothing gives any network back');
  assert.ok(at('(deny file-write*)') > 0);
  assert.deepEqual(rules.filter((r) => /\(allow file-write/.test(r)), ['(allow file-write-data (literal "/dev/null"))'], 'the only write left is /dev/null');
  assert.ok(at('(deny process-exec*)') > 0 && at('(deny process-fork)') > 0);
  assert.deepEqual(rules.filter((r) => /\(allow process-exec/.test(r)), ['(allow process-exec (literal (param "RLM_EXEC")))']);
  const denyRead = at('(deny file-read-data file-read-xattr)');
  assert.ok(denyRead > 0);
  const allowRead = rules.filter((r) => r.startsWith('(allow file-read'));
  assert.equal(allowRead.length, 1);
  assert.ok(rules.indexOf(allowRead[0]!) > denyRead, 'the read exceptions come after the deny, so they are the ones that win');
  const subpaths = [...allowRead[0]!.matchAll(/\((subpath|literal) ("[^"]*"|\(param "[A-Z_]+"\))\)/g)].map((m) => m[2]);
  assert.deepEqual(subpaths.filter((p) => p!.startsWith('(param')), ['(param "RLM_BUNDLE")', '(param "RLM_RUNTIME")']);
  for (const path of subpaths.filter((p) => !p!.startsWith('(param')).map((p) => JSON.parse(p!) as string)) {
    assert.match(path, /^\/(usr\/lib|usr\/share\/icu|System\/|private\/var\/db\/(dyld|timezone)|private\/etc\/localtime|dev\/(null|u?random))/, `${path} is a system path holding no user data`);
  }
});

test('macOS with a plain Node: the runtime root is its installation prefix, not the folder of all programs', () => {
  const plan = planLaunch({ ...mac, isElectron: false, execPath: '/Users/ana/.nvm/versions/node/v22.15.0/bin/node' });
  assert.ok(plan.args.includes('RLM_RUNTIME=/Users/ana/.nvm/versions/node/v22.15.0'));
  const homebrew = planLaunch({ ...mac, isElectron: false, execPath: '/opt/homebrew/Cellar/node/22.15.0/bin/node' });
  assert.ok(homebrew.args.includes('RLM_RUNTIME=/opt/homebrew/Cellar/node/22.15.0'));
});

test('macOS without sandbox-exec: the layer is off, and says so', () => {
  const plan = planLaunch({ ...mac, which: () => undefined });
  assert.equal(plan.os.kind, 'none');
  assert.equal(plan.command, mac.execPath);
  assert.match(plan.os.notes[0]!, /sandbox-exec.*not found/);
});

test('Windows: Node (or Electron as Node) is started directly with Windows paths in the permission flags, and the plan says plainly there is no OS layer', () => {
  const plan = planLaunch({
    ...mac, platform: 'win32', distDir: 'C:\\Users\\ana\\.vscode\\extensions\\rlm\\dist',
    execPath: 'C:\\Users\\ana\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe', which: () => undefined,
  });
  assert.equal(plan.os.kind, 'none');
  assert.equal(plan.command, 'C:\\Users\\ana\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe');
  assert.deepEqual(plan.args, [
    '--disallow-code-generation-from-strings',
    '--single-threaded',
    '--permission',
    '--allow-fs-read=C:\\Users\\ana\\.vscode\\extensions\\rlm\\dist\\replProcess.js',
    '--allow-fs-read=C:\\Users\\ana\\.vscode\\extensions\\rlm\\dist\\replWorker.js',
    '--allow-fs-read=C:\\Users\\ana\\.vscode\\extensions\\rlm\\dist\\esmGuardHooks.mjs',
    '--allow-fs-read=C:\\Users\\ana\\.vscode\\extensions\\rlm\\dist\\pyodide\\*',
    '--allow-worker',
    'C:\\Users\\ana\\.vscode\\extensions\\rlm\\dist\\replProcess.js',
  ]);
  assert.deepEqual(plan.env, { ELECTRON_RUN_AS_NODE: '1' });
  assert.match(plan.os.notes.join(' '), /Windows: no operating-system sandbox; .*network is kept out by layer 2 alone/);
});
