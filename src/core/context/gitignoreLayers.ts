// The .gitignore files of a tree, layered as git layers them (gitignore(5)); used by `rlm ask` on a
// folder (readPaths.ts) and by the extension's folder and workspace runs (gatherWorkspace.ts).
//  - A file's rules apply to paths below its own folder.
//  - For one path, the deepest .gitignore with a matching rule decides, and within it the last match:
//    so `!keep.log` in a sub-folder re-includes what `*.log` at the root ignores.
//  - A folder that is ignored is never entered: nothing inside it can be re-included, whatever a
//    negation (in any file) says.
// Paths and folders are POSIX paths relative to one root ('' is the root itself).
import { parseGitignore } from './gitignorePattern';
import type { GitignoreRule } from './gitignorePattern';

interface Layer {
  /** The folder holding the .gitignore, '' for the root. */
  dir: string;
  rules: GitignoreRule[];
}

type Verdict = 'ignored' | 'included' | undefined;

interface GitignoreOptions {
  /**
   * Match case-insensitively, as git does where core.ignoreCase is set (it sets it on the case-insensitive
   * file systems of macOS and Windows). Default: on there, off elsewhere.
   */
  ignoreCase?: boolean;
}

export class GitignoreLayers {
  /** Folder verdicts, for whole-path checks. */
  private readonly folderVerdicts = new Map<string, boolean>();

  private constructor(
    /** Deepest first. */
    private readonly layers: readonly Layer[],
    private readonly ignoreCase: boolean,
  ) {}

  static empty(options: GitignoreOptions = {}): GitignoreLayers {
    return new GitignoreLayers([], options.ignoreCase ?? (process.platform === 'darwin' || process.platform === 'win32'));
  }

  /** These layers and one more .gitignore (its text, and the folder holding it); this object is unchanged. */
  with(dir: string, text: string): GitignoreLayers {
    const layer = { dir: normalize(dir), rules: parseGitignore(text, this.ignoreCase) };
    // Layers that apply to one path are all its folders, so the longer folder is the deeper one.
    const layers = [...this.layers, layer].sort((a, b) => b.dir.length - a.dir.length);
    return new GitignoreLayers(layers, this.ignoreCase);
  }

  /** Whether `path` is ignored, its folders included: for a flat list of files. */
  ignores(path: string, isDir = false): boolean {
    const parts = normalize(path).split('/');
    for (let i = 1; i < parts.length; i++) {
      if (this.folderIgnored(parts.slice(0, i).join('/'))) return true;
    }
    return this.verdict(parts.join('/'), isDir) === 'ignored';
  }

  /**
   * Whether this entry of a folder is ignored, for a walk that never enters an ignored folder (so none
   * of the entry's folders is): the rules' verdict on the entry alone.
   */
  /** True when no .gitignore applies: a walk can skip asking. */
  get empty(): boolean {
    return this.layers.length === 0;
  }

  ignoresEntry(path: string, isDir: boolean): boolean {
    return this.verdict(normalize(path), isDir) === 'ignored';
  }

  private folderIgnored(dir: string): boolean {
    let ignored = this.folderVerdicts.get(dir);
    if (ignored === undefined) {
      ignored = this.verdict(dir, true) === 'ignored';
      this.folderVerdicts.set(dir, ignored);
    }
    return ignored;
  }

  private verdict(path: string, isDir: boolean): Verdict {
    if (path === '') return undefined;
    const name = path.slice(path.lastIndexOf('/') + 1);
    for (const layer of this.layers) {
      if (layer.dir !== '' && !path.startsWith(`${layer.dir}/`)) continue;
      const relative = layer.dir === '' ? path : path.slice(layer.dir.length + 1);
      const found = lastMatch(layer.rules, relative, name, isDir);
      if (found) return found;
    }
    return undefined;
  }
}

function lastMatch(rules: GitignoreRule[], relative: string, name: string, isDir: boolean): Verdict {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.folderOnly && !isDir) continue;
    if (rule.matcher.test(rule.nameOnly ? name : relative)) return rule.negative ? 'included' : 'ignored';
  }
  return undefined;
}

/** Callers give POSIX paths (a backslash is a character of a name there); outer slashes are dropped. */
function normalize(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}
