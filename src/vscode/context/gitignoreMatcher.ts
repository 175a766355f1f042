// .gitignore rules of a workspace folder, nested files included: each file's rules apply to paths
// below its own directory, as git applies them.
import ignore from 'ignore';
import type { Ignore } from 'ignore';

export class GitignoreMatcher {
  private readonly rules: Array<{ dir: string; matcher: Ignore }> = [];

  /** `dir` is the folder holding the .gitignore, relative to the workspace folder ('' for its root). */
  add(dir: string, content: string): void {
    const normalized = dir.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
    this.rules.push({ dir: normalized, matcher: ignore().add(content) });
  }

  get size(): number {
    return this.rules.length;
  }

  /** `path` is relative to the workspace folder, POSIX separators. */
  ignores(path: string): boolean {
    const normalized = path.replace(/\\/g, '/').replace(/^\/+/, '');
    for (const { dir, matcher } of this.rules) {
      if (dir !== '' && !normalized.startsWith(`${dir}/`)) continue;
      const relative = dir === '' ? normalized : normalized.slice(dir.length + 1);
      if (relative !== '' && matcher.ignores(relative)) return true;
    }
    return false;
  }
}
