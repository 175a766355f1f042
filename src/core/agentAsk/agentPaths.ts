// Turns the paths an agent names (files, folders, globs; relative to the served root) into the plan of
// what a run reads. An agent's arguments may be steered by any text it read (a README, a web page), so
// every path is confined to the root: `..` is refused as written, an absolute path must lie inside the
// root, and what a path resolves to through symlinks must too (checked on real paths, so a link inside
// the root that leads out is refused like the path it leads to). Inside folders the walk itself never
// follows links out (contextPlan.ts).
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { PathNotFoundError } from '../context/contextErrors';
import { planPaths } from '../context/contextPlan';
import type { ContextFs, PlanOptions } from '../context/contextPlan';
import type { ContextPlan } from '../context/contextTypes';
import { BraceExpansionError, expandBraces } from '../context/globBraces';
import { compileWildmatch } from '../context/wildmatch';
import { isWithin } from '../context/pathContainment';
import { AgentAskError } from './agentAskErrors';

/** More named paths than this is not a question about "these files" any more: name a folder instead. */
const MAX_AGENT_PATHS = 200;
/** A glob matching more files than this is refused: the agent should name the folder (read lazily if large). */
const MAX_GLOB_MATCHES = 20_000;

interface AgentPlanOptions extends Pick<PlanOptions, 'maxFileBytes' | 'maxTotalBytes' | 'maxListedBytes'> {
  /** The folder served: every path is confined to it. */
  root: string;
  fs?: ContextFs;
}

const GLOB_CHARS = /[*?[{]/;

/** The plan of what `paths` name under `root` (the whole root when none). Throws AgentAskError or ContextReadError. */
export async function planAgentPaths(paths: readonly unknown[], options: AgentPlanOptions): Promise<ContextPlan> {
  const realpath = options.fs?.realpath ?? ((p: string) => realpathSync.native(p));
  let rootReal: string;
  try {
    rootReal = realpath(resolve(options.root));
  } catch {
    throw new AgentAskError('bad-path', `The folder RLM serves (${options.root}) cannot be read; start it on an existing folder.`);
  }
  if (paths.length > MAX_AGENT_PATHS) throw new AgentAskError('bad-input', `${paths.length} paths were given; name at most ${MAX_AGENT_PATHS}, or name the folder that holds them.`);
  const planOptions: PlanOptions = {
    cwd: rootReal,
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
    ...(options.maxTotalBytes !== undefined ? { maxTotalBytes: options.maxTotalBytes } : {}),
    ...(options.maxListedBytes !== undefined ? { maxListedBytes: options.maxListedBytes } : {}),
    ...(options.fs ? { fs: options.fs } : {}),
  };
  const named: string[] = [];
  for (const given of paths) {
    const path = checkedPath(given);
    if (GLOB_CHARS.test(path)) named.push(...(await globMatches(path, rootReal, realpath, planOptions)));
    else named.push(confined(path, rootReal, realpath));
  }
  return planPaths(named.length ? [...new Set(named)] : [rootReal], planOptions);
}

/** A non-empty string without `..` segments or NUL; `./` and trailing slashes are harmless. */
function checkedPath(given: unknown): string {
  if (typeof given !== 'string') throw new AgentAskError('bad-input', `Each path must be a string; got ${given === null ? 'null' : typeof given}.`);
  const path = given.trim();
  if (path === '' || path.includes('\0')) throw new AgentAskError('bad-input', 'A path is empty or holds a NUL character; name files, folders or globs relative to the served folder.', given);
  if (path.split(/[\\/]+/).includes('..')) {
    throw new AgentAskError('outside-root', `"${path}" climbs out with "..": RLM reads only inside the folder it serves; name paths relative to that folder.`, given);
  }
  return path;
}

/** The real path `path` names, refused unless it lies inside the root (after following every link). */
function confined(path: string, rootReal: string, realpath: (p: string) => string): string {
  const abs = isAbsolute(path) ? resolve(path) : resolve(rootReal, path);
  let real: string;
  try {
    real = realpath(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Said as written: an absolute path outside is refused the same whether it exists or not.
    if (!isWithin(abs, rootReal)) throw outside(path, rootReal);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new PathNotFoundError(shown(abs, rootReal));
    throw new AgentAskError('bad-path', `"${path}" cannot be resolved (${code ?? 'error'}); name another file or folder.`, path);
  }
  if (!isWithin(real, rootReal)) throw outside(path, rootReal);
  return real;
}

function outside(path: string, rootReal: string): AgentAskError {
  return new AgentAskError('outside-root', `"${path}" is outside the folder RLM serves (${rootReal}); RLM reads only inside it, through no symlink out.`, path);
}

function shown(abs: string, rootReal: string): string {
  const rel = relative(rootReal, abs);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/**
 * The files a glob (relative to the root, `**` crossing folders) matches: the folder before its first
 * wildcard is walked with the usual rules (.gitignore, binaries, size, no links out), then filtered.
 */
async function globMatches(pattern: string, rootReal: string, realpath: (p: string) => string, planOptions: PlanOptions): Promise<string[]> {
  const relativePattern = isAbsolute(pattern) ? absoluteGlobInside(pattern, rootReal) : pattern.replace(/^(\.\/)+/, '');
  const segments = relativePattern.split('/');
  const firstWild = segments.findIndex((s) => GLOB_CHARS.test(s));
  const base = segments.slice(0, firstWild).join('/');
  const baseReal = base ? confined(base, rootReal, realpath) : rootReal;
  let expanded: string[];
  try {
    expanded = expandBraces(relativePattern);
  } catch (error) {
    if (error instanceof BraceExpansionError) throw new AgentAskError('bad-input', error.message, pattern);
    throw error;
  }
  // Matched in linear time: the files' names are the repository's, the glob the agent's (wildmatch.ts).
  const matchers = expanded.map((p) => compileWildmatch(p));
  let plan: ContextPlan;
  try {
    plan = await planPaths([baseReal], planOptions);
  } catch (error) {
    if (error instanceof PathNotFoundError) throw noMatch(pattern);
    throw error;
  }
  const matches: string[] = [];
  for (const file of plan.files) {
    const rel = shown(file.abs, rootReal);
    if (!matchers.some((m) => m?.test(rel))) continue;
    matches.push(realpath(file.abs));
    if (matches.length > MAX_GLOB_MATCHES) throw new AgentAskError('too-many-matches', `"${pattern}" matches more than ${MAX_GLOB_MATCHES} files; name the folder instead (a large one is read lazily).`, pattern);
  }
  if (matches.length === 0) throw noMatch(pattern);
  return matches;
}

function absoluteGlobInside(pattern: string, rootReal: string): string {
  const prefix = rootReal.endsWith(sep) ? rootReal : rootReal + sep;
  if (!pattern.startsWith(prefix)) throw outside(pattern, rootReal);
  return pattern.slice(prefix.length).split(sep).join('/');
}

function noMatch(pattern: string): AgentAskError {
  return new AgentAskError('no-match', `"${pattern}" matches no readable text file in the served folder (ignored, binary and over-size files are left out); check the pattern.`, pattern);
}
