// Facts about a set of source files, computed from their text: the answers of the code suite.
import type { ContextFile } from '../../core/context/contextTypes';

const DEFINITION_PATTERN = /\bfunction\s*\*?\s*([A-Za-z_$][\w$]{5,})\s*\(/g;

function text(file: ContextFile): string {
  return typeof file.content === 'string' ? file.content : new TextDecoder().decode(file.content);
}

/** Function name -> the files that define it with `function name(`. */
export function functionDefinitions(files: readonly ContextFile[]): Map<string, Set<string>> {
  const defs = new Map<string, Set<string>>();
  for (const f of files) {
    for (const m of text(f).matchAll(DEFINITION_PATTERN)) {
      const set = defs.get(m[1]!) ?? new Set<string>();
      set.add(f.path);
      defs.set(m[1]!, set);
    }
  }
  return defs;
}

function escapeRegex(s: string): string {
  return s.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');
}

/**
 * Files containing `name(` (spaces allowed before the parenthesis, not part of a longer identifier)
 * anywhere other than directly after the keyword `function`.
 */
export function filesCalling(files: readonly ContextFile[], name: string): string[] {
  const call = new RegExp(`(?<![\\w$])${escapeRegex(name)}\\s*\\(`, 'g');
  const out: string[] = [];
  for (const f of files) {
    const t = text(f);
    for (const m of t.matchAll(call)) {
      if (!/function\s*\*?\s*$/.test(t.slice(Math.max(0, m.index - 20), m.index))) {
        out.push(f.path);
        break;
      }
    }
  }
  return out;
}

/** Name -> number of files calling it (same rule as filesCalling), for every name, in one pass per file. */
export function callingFileCounts(files: readonly ContextFile[]): Map<string, number> {
  const counts = new Map<string, number>();
  const call = /(?<![\w$])([A-Za-z_$][\w$]*)\s*\(/g;
  for (const f of files) {
    const t = text(f);
    const seen = new Set<string>();
    for (const m of t.matchAll(call)) {
      const name = m[1]!;
      if (name === 'function' || seen.has(name)) continue;
      if (/function\s*\*?\s*$/.test(t.slice(Math.max(0, m.index - 20), m.index))) continue;
      seen.add(name);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return counts;
}

interface PackageFacts {
  path: string;
  name: string;
  dependencies: string[];
}

/** Every parseable package.json with a name among the files. */
export function packageManifests(files: readonly ContextFile[]): PackageFacts[] {
  const out: PackageFacts[] = [];
  for (const f of files) {
    if (!/(^|\/)package\.json$/.test(f.path)) continue;
    try {
      const json = JSON.parse(text(f)) as { name?: unknown; dependencies?: unknown };
      if (typeof json.name !== 'string') continue;
      const deps = json.dependencies && typeof json.dependencies === 'object' ? Object.keys(json.dependencies) : [];
      out.push({ path: f.path, name: json.name, dependencies: deps });
    } catch {
      // Not every package.json in the wild is valid JSON; such a file simply yields no facts.
    }
  }
  return out;
}
