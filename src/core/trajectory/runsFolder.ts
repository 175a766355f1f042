// Creates the folder runs are recorded in. Recorded runs hold earlier prompts, answers and slices of
// what was read, so the default `.rlm` folder in a project is kept out of git and out of what a later
// question about the whole folder reads: when this creates `.rlm`, it writes `.rlm/.gitignore` with `*`
// (as pytest and mypy do for their caches). The walk of a folder honours .gitignore files. A user who
// wants runs in git deletes that file; it is never written again into a `.rlm` that already exists.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, parse, resolve, sep } from 'node:path';

const RUNS_GITIGNORE = "# Written by RLM. Recorded runs hold earlier questions, answers and slices of what was read:\n# they stay out of git and out of what RLM reads about this folder. Delete this file to keep them in git.\n*\n";

/** The `.rlm` folder `folder` lies in (the innermost), or undefined. */
function rlmFolderOf(folder: string): string | undefined {
  const absolute = resolve(folder);
  const { root } = parse(absolute);
  const parts = absolute.slice(root.length).split(sep).filter(Boolean);
  const at = parts.lastIndexOf('.rlm');
  return at < 0 ? undefined : join(root, ...parts.slice(0, at + 1));
}

/** mkdir -p `folder`; a `.rlm` folder created on the way gets its .gitignore. */
export function createRunsFolder(folder: string): void {
  const rlm = rlmFolderOf(folder);
  const created = rlm !== undefined && !existsSync(rlm);
  mkdirSync(folder, { recursive: true });
  if (!created) return;
  try {
    writeFileSync(join(rlm, '.gitignore'), RUNS_GITIGNORE, { flag: 'wx' });
  } catch (error) {
    // Another run created it first: theirs is the same file.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
