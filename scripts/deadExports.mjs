// Lint's dead-export check (`npm run lint`): every export of a TypeScript file must be imported by some
// other file of the project (tests and benches count: they are real consumers), or be an entry point
// that a host loads by name (listed below, each with why). A dead export is either dead code or an
// export that should be a local; both make a module look bigger than it is.
// `node scripts/deadExports.mjs` prints one line per dead export and exits 1 when there is any.
// Written on the TypeScript compiler API (knip is not a dependency): the program comes from
// tsconfig.json, and the project's .mjs/.js/.cjs files are read as consumers too.
import ts from 'typescript';
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { KNOWN_DEAD_EXPORTS } from './deadExportsBaseline.mjs';

/** Exports used by name by something other than an import: VS Code, Node's loader, the bench runner. */
export const ENTRY_POINTS = [
  { file: /^src\/vscode\/extension\.ts$/, names: ['activate', 'deactivate'], why: 'VS Code calls them (package.json main)' },
  { file: /^src\/vscode\/engine\/engineEntry\.ts$/, names: ['engine'], why: 'the extension requires dist/engine.js at run time' },
  { file: /^src\/worker\/esmGuardHooks\.ts$/, names: ['initialize', 'resolve'], why: "Node's module.register() calls the hooks" },
  { file: /^bench\/\w+Bench\.ts$/, names: ['run'], why: 'bench/runAll.ts finds the modules by name' },
  { file: /^test\/integration\/extensionHost\/suiteRunner\.ts$/, names: ['runSuite'], why: 'bundleSuite.mjs requires it by a path it builds' },
];

/** Files whose exports are not the project's own API. */
const NOT_CHECKED = [/^test\/fixtures\/sampleWorkspace\//];

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'dist-test', '.cache', 'out', 'test-output', '.git', '.rlm']);

/** The project's JavaScript files (not in tsconfig), read only for what they import. */
function javaScriptFiles(root, dir = root) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) out.push(...javaScriptFiles(root, join(dir, entry.name)));
    } else if (/\.(mjs|cjs|js)$/.test(entry.name)) {
      out.push(join(dir, entry.name));
    }
  }
  return out;
}

function loadProgram(root, tsconfig) {
  const configPath = join(root, tsconfig);
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  const options = { ...parsed.options, allowJs: true, noEmit: true };
  const rootNames = [...parsed.fileNames, ...javaScriptFiles(root)];
  return { program: ts.createProgram({ rootNames, options }), options, checked: new Set(parsed.fileNames.map((f) => resolve(f))) };
}

/** `file` -> names imported from it; '*' when a consumer may use any of them. */
function collectUses(program, options) {
  const uses = new Map();
  const use = (file, name) => {
    if (!uses.has(file)) uses.set(file, new Set());
    uses.get(file).add(name);
  };
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile) continue;
    const target = (specifier) => {
      const resolved = ts.resolveModuleName(specifier, source.fileName, options, ts.sys).resolvedModule;
      return resolved && !resolved.isExternalLibraryImport ? resolve(resolved.resolvedFileName) : undefined;
    };
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const file = target(node.moduleSpecifier.text);
        const clause = node.importClause;
        if (file && clause) {
          if (clause.name) use(file, 'default');
          const bindings = clause.namedBindings;
          if (bindings && ts.isNamespaceImport(bindings)) use(file, '*');
          else if (bindings) for (const el of bindings.elements) use(file, (el.propertyName ?? el.name).text);
        }
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const file = target(node.moduleSpecifier.text);
        if (file && node.exportClause && ts.isNamedExports(node.exportClause)) {
          for (const el of node.exportClause.elements) use(file, (el.propertyName ?? el.name).text);
        } else if (file) use(file, '*');
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        const file = target(node.argument.literal.text);
        if (file) use(file, node.qualifier ? leftmost(node.qualifier) : '*');
      } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0])) {
        // import('./x') and require('./x'): what is used of the module is not visible here.
        const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
        const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
        const file = isImport || isRequire ? target(node.arguments[0].text) : undefined;
        if (file) use(file, '*');
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
        const file = target(node.moduleReference.expression.text);
        if (file) use(file, '*');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return uses;
}

function leftmost(name) {
  return ts.isIdentifier(name) ? name.text : leftmost(name.left);
}

/**
 * Every export of a checked file that no other file imports. `root` holds `tsconfig`; paths in the
 * result are relative to it, with `/`.
 */
export function findDeadExports({ root, tsconfig = 'tsconfig.json', entryPoints = ENTRY_POINTS }) {
  const { program, options, checked } = loadProgram(root, tsconfig);
  const checker = program.getTypeChecker();
  const uses = collectUses(program, options);
  const dead = [];
  for (const source of program.getSourceFiles()) {
    const file = resolve(source.fileName);
    if (source.isDeclarationFile || !checked.has(file)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    const path = relative(root, file).split(sep).join('/');
    if (NOT_CHECKED.some((pattern) => pattern.test(path))) continue;
    const used = uses.get(file) ?? new Set();
    if (used.has('*')) continue;
    const hosted = entryPoints.filter((e) => e.file.test(path)).flatMap((e) => e.names);
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const name = symbol.getName();
      if (used.has(name) || hosted.includes(name)) continue;
      const declaration = symbol.declarations?.[0];
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const kind = target.flags & ts.SymbolFlags.Value ? 'value' : 'type';
      const line = declaration ? source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1 : 1;
      dead.push({ path, line, name, kind });
    }
  }
  return dead.sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
}

/**
 * Splits the dead exports into new ones and known ones (`known`: path -> names), and lists the known
 * entries that are no longer dead: the list must shrink with the code.
 */
export function compareWithKnown(dead, known) {
  const isKnown = (d) => known[d.path]?.includes(d.name) ?? false;
  const stale = Object.entries(known).flatMap(([path, names]) => names.filter((name) => !dead.some((d) => d.path === path && d.name === name)).map((name) => `${path} ${name}`));
  return { fresh: dead.filter((d) => !isKnown(d)), known: dead.filter(isKnown), stale };
}

const invokedDirectly = process.argv[1] && existsSync(process.argv[1]) && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const { fresh, known, stale } = compareWithKnown(findDeadExports({ root }), KNOWN_DEAD_EXPORTS);
  for (const d of fresh) console.error(`${d.path}:${d.line}  ${d.name} (${d.kind}) is exported but imported nowhere`);
  for (const entry of stale) console.error(`${entry}: listed in scripts/deadExportsBaseline.mjs but no longer a dead export; remove the entry`);
  if (fresh.length > 0 || stale.length > 0) {
    console.error(`\n${fresh.length} dead exports, ${stale.length} stale entries: drop the export (or the code, if nothing uses it), or list a host-loaded entry point in scripts/deadExports.mjs.`);
    process.exit(1);
  }
  console.log(`dead exports: no new ones (${known.length} known, listed in scripts/deadExportsBaseline.mjs)`);
}
