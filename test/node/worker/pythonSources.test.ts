// The REPL's Python (every src/**/*.py) is checked as Python: each file compiles with `python3 -m
// py_compile` and passes pyflakes (Debian's pyflakes3, installed by scripts/installSystemPackages.sh).
// Debian's python3 (3.11) is older than Pyodide's (3.14), so the prelude keeps to syntax both read.
// No function or method may run over MAX_FUNCTION_LINES lines (a parse with Python's own ast, so nested
// functions count on their own and inside the function that holds them).
// A missing tool fails the run in CI (CI set) and skips these checks locally, naming the package.
import { after, test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'rlm-python-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const pythonFiles = readdirSync(join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.py'))
  .map((f) => join('src', f).split(sep).join('/'))
  .sort();

interface ToolRun {
  ok: boolean;
  output: string;
}

function run(command: string, args: string[]): ToolRun | undefined {
  // Bytecode goes to the scratch folder, never into src/.
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, PYTHONPYCACHEPREFIX: scratch } });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return undefined;
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}

const compile = (file: string): ToolRun | undefined => run('python3', ['-m', 'py_compile', file]);

const MAX_FUNCTION_LINES = 150;
/** Prints `name:first line:length` for each function longer than the limit and exits 1 if there is one. */
const LONG_FUNCTIONS_PY = [
  'import ast, sys',
  'path, limit = sys.argv[1], int(sys.argv[2])',
  "tree = ast.parse(open(path, encoding='utf-8').read(), path)",
  'long = [(n.name, n.lineno, n.end_lineno - n.lineno + 1) for n in ast.walk(tree)',
  '        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.end_lineno - n.lineno + 1 > limit]',
  "print('\\n'.join('%s:%d:%d lines' % f for f in long))",
  'sys.exit(1 if long else 0)',
].join('\n');
const longFunctions = (file: string): ToolRun | undefined => run('python3', ['-c', LONG_FUNCTIONS_PY, file, String(MAX_FUNCTION_LINES)]);
const pyflakes = (file: string): ToolRun | undefined => run('pyflakes3', [file]);

/** The tool's result, or: a failure in CI and a skip elsewhere, saying what to install. */
function required(t: TestContext, result: ToolRun | undefined, tool: string, pkg: string): ToolRun | undefined {
  if (result) return result;
  const message = `${tool} is not installed: apt-get install ${pkg} (scripts/installSystemPackages.sh does it)`;
  if (process.env.CI) assert.fail(`${message}; CI must run every check`);
  t.skip(message);
  return undefined;
}

test('the Python sources are found (the prelude, its parts and the isolation layer at least)', () => {
  for (const file of ['src/worker/python/prelude.py', 'src/worker/python/cell_runner.py', 'src/worker/python/isolation.py']) assert.ok(pythonFiles.includes(file), `${file} missing from ${pythonFiles.join(', ')}`);
});

for (const file of pythonFiles) {
  test(`${file} compiles (python3 -m py_compile)`, (t) => {
    const result = required(t, compile(file), 'python3', 'python3');
    if (result) assert.ok(result.ok, result.output);
  });

  test(`${file} has no function over ${MAX_FUNCTION_LINES} lines`, (t) => {
    const result = required(t, longFunctions(file), 'python3', 'python3');
    if (result) assert.ok(result.ok, `split these by job (name:line:length): ${result.output}`);
  });

  test(`${file} passes pyflakes`, (t) => {
    const result = required(t, pyflakes(file), 'pyflakes3', 'pyflakes3');
    if (result) assert.ok(result.ok, result.output);
  });
}

test('the length check fails on a function one line over the limit, nested or not, and passes one at it', (t) => {
  const body = (lines: number, indent: string): string => Array.from({ length: lines - 1 }, (_, i) => `${indent}x${i} = ${i}\n`).join('');
  const atLimit = join(scratch, 'atLimit.py');
  writeFileSync(atLimit, `def f():\n${body(MAX_FUNCTION_LINES, '    ')}`);
  const ok = required(t, longFunctions(relative(repoRoot, atLimit)), 'python3', 'python3');
  if (!ok) return;
  assert.equal(ok.ok, true, ok.output);
  const nested = join(scratch, 'nested.py');
  writeFileSync(nested, `def outer():\n    def inner():\n${body(MAX_FUNCTION_LINES + 1, '        ')}    return inner\n`);
  const long = longFunctions(relative(repoRoot, nested));
  assert.equal(long?.ok, false);
  assert.match(long?.output ?? '', /^outer:1:\d+ lines\ninner:2:151 lines$/);
});

test('the checks fail on broken Python: a syntax error, and a name that is never defined', (t) => {
  const broken = join(scratch, 'broken.py');
  writeFileSync(broken, 'def f(:\n    pass\n');
  const compiled = required(t, compile(relative(repoRoot, broken)), 'python3', 'python3');
  if (!compiled) return;
  assert.equal(compiled.ok, false);
  assert.match(compiled.output, /SyntaxError/);
  const undefinedName = join(scratch, 'undefinedName.py');
  writeFileSync(undefinedName, 'def f():\n    return missing_name\n');
  const flakes = required(t, pyflakes(undefinedName), 'pyflakes3', 'pyflakes3');
  if (!flakes) return;
  assert.equal(flakes.ok, false);
  assert.match(flakes.output, /undefined name 'missing_name'/);
});
