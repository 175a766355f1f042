// Gathers a folder or the whole workspace as a multi-file context through workspace.findFiles,
// honouring files.exclude, search.exclude, .gitignore and rlm.include / rlm.exclude. Unsaved editor
// contents win over disk; in a multi-root workspace paths start with the folder's name.
import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { readLocalFile } from '../../core/context/localFileRead';
import type { ContextPlan, InputFormat, PlannedFile, TargetDescription } from '../../core/context/contextTypes';
import { folderInputFormat } from '../../core/context/contextPlan';
import { isConvertedFile, plannedFolderFile } from '../../core/context/folderFile';
import { readAnyPlannedInto } from '../../core/context/planReader';
import { newPdfSession } from '../../core/context/pdfDocument';
import { GitignoreLayers } from '../../core/context/gitignoreLayers';
import type { RlmSettings } from '../settings/rlmSettings';
import { GatherBudget } from './gatherBudget';
import type { GatherCounts, SkipReason } from './gatherBudget';
import { combineGlobs, enabledPatterns } from './globPatterns';
import { admissibleBytes, checkCandidates, planLazyWorkspace } from './lazyWorkspacePlan';
import type { CheckedCandidate, LazyCandidate } from './lazyWorkspacePlan';

export interface GatherScope {
  folder: vscode.WorkspaceFolder;
  /** A sub-folder to gather instead of the whole workspace folder (explorer "Ask about folder..."). */
  subPath?: string;
}

interface GatherOutcome {
  files: Array<{ path: string; content: Uint8Array | string }>;
  /** Compressed logs, notebooks and PDFs read as their text: the metadata's word on them. */
  format?: InputFormat;
  /** Set when the target was over rlm.contextLimitMb: listed only, bound lazily (lazyWorkspacePlan.ts). */
  plan?: ContextPlan;
  target: TargetDescription;
  skipCounts: Partial<Record<SkipReason, number>>;
  ignoredByGitignore: number;
}

interface GatherProgress {
  report(counts: GatherCounts): void;
}

const READ_CONCURRENCY = 16;

function excludeGlob(folder: vscode.WorkspaceFolder, settings: RlmSettings): string | undefined {
  const files = vscode.workspace.getConfiguration('files', folder.uri).get('exclude');
  const search = vscode.workspace.getConfiguration('search', folder.uri).get('exclude');
  return combineGlobs([...enabledPatterns(files), ...enabledPatterns(search), ...settings.exclude]);
}

async function loadGitignores(folder: vscode.WorkspaceFolder, base: string, token: vscode.CancellationToken): Promise<GitignoreLayers> {
  let layers = GitignoreLayers.empty();
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, `${base ? `${base}/` : ''}**/.gitignore`), null, 2000, token);
  // Parent folders' .gitignore files apply to a sub-folder too.
  const parents: vscode.Uri[] = [];
  const segments = base ? base.split('/') : [];
  for (let i = 0; i < segments.length; i++) parents.push(vscode.Uri.joinPath(folder.uri, ...segments.slice(0, i), '.gitignore'));
  if (!base) parents.push(vscode.Uri.joinPath(folder.uri, '.gitignore'));
  const seen = new Set<string>();
  for (const uri of [...parents, ...found]) {
    if (seen.has(uri.toString())) continue;
    seen.add(uri.toString());
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const rel = vscode.workspace.asRelativePath(uri, false);
      const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
      layers = layers.with(dir === '.gitignore' ? '' : dir, text);
    } catch {
      // A parent without a .gitignore is the normal case.
    }
  }
  return layers;
}

function openDocuments(): Map<string, vscode.TextDocument> {
  const map = new Map<string, vscode.TextDocument>();
  for (const doc of vscode.workspace.textDocuments) if (doc.isDirty) map.set(doc.uri.toString(), doc);
  return map;
}

export async function gatherWorkspace(
  scopes: GatherScope[],
  settings: RlmSettings,
  progress: GatherProgress,
  token: vscode.CancellationToken,
): Promise<GatherOutcome> {
  const budget = new GatherBudget({ maxFileBytes: settings.maxFileBytes, contextLimitBytes: settings.contextLimitBytes });
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  const dirty = openDocuments();
  const labels: string[] = [];
  const include = combineGlobs(settings.include) ?? '**/*';
  const listed: LazyCandidate[] = [];
  const scoped: Array<{ candidates: Array<{ uri: vscode.Uri; path: string }>; local: LocalScope | undefined; offset: number }> = [];
  let allLocal = true;
  for (const scope of scopes) {
    const base = (scope.subPath ?? '').replace(/^\/+|\/+$/g, '');
    labels.push(multiRoot ? `${scope.folder.name}/${base}` : base || scope.folder.name);
    const gitignore = await loadGitignores(scope.folder, base, token);
    const scopeRoot = base ? vscode.Uri.joinPath(scope.folder.uri, base) : scope.folder.uri;
    const local = scopeRoot.scheme === 'file' ? { root: scopeRoot.fsPath, rootReal: await realpath(scopeRoot.fsPath) } : undefined;
    const pattern = new vscode.RelativePattern(scopeRoot, include);
    const uris = await vscode.workspace.findFiles(pattern, excludeGlob(scope.folder, settings) ?? null, undefined, token);
    uris.sort((a, b) => (a.path < b.path ? -1 : 1));
    const candidates: Array<{ uri: vscode.Uri; path: string }> = [];
    for (const uri of uris) {
      const folderRelative = vscode.workspace.asRelativePath(uri, false);
      if (gitignore.ignores(folderRelative)) {
        budget.ignoredByGitignore++;
        continue;
      }
      candidates.push({ uri, path: multiRoot ? `${scope.folder.name}/${folderRelative}` : folderRelative });
    }
    scoped.push({ candidates, local, offset: listed.length });
    if (local) for (const c of candidates) listed.push({ path: c.path, fsPath: c.uri.fsPath, root: local.root, rootReal: local.rootReal });
    else allLocal = false;
  }
  const kind = scopes.length > 1 || !scopes[0]?.subPath ? 'workspace' : 'folder';
  const cancelled = (): boolean => token.isCancellationRequested;
  // On this machine's disk, every file is looked at (lstat, where links lead) before any is read: a
  // target over the eager limit is then listed for a lazy binding without reading a byte of it, and
  // one under it is read with what the look found.
  const checked = allLocal ? await checkCandidates(listed, cancelled).catch(cancelledOr) : undefined;
  if (checked && settings.workspaceLimitBytes > settings.contextLimitBytes && admissibleBytes(listed, checked, settings.maxFileBytes) > settings.contextLimitBytes) {
    const plan = await planLazyWorkspace(listed, settings, kind, labels, cancelled, checked);
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const counts: Partial<Record<SkipReason, number>> = {};
    for (const entry of plan.target.skipped) counts[entry.reason] = (counts[entry.reason] ?? 0) + 1;
    return { files: [], plan, target: plan.target, skipCounts: counts, ignoredByGitignore: budget.ignoredByGitignore };
  }
  const converted: Converted = { files: [], limits: { maxFileBytes: settings.maxFileBytes, maxTotalBytes: settings.contextLimitBytes, pdfSession: () => (converted.session ??= newPdfSession()) } };
  for (const { candidates, local, offset } of scoped) {
    for (let i = 0; i < candidates.length; i += READ_CONCURRENCY) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      await Promise.all(candidates.slice(i, i + READ_CONCURRENCY).map((c, j) => readOne(c.uri, c.path, budget, dirty, local, checked?.[offset + i + j], converted)));
      progress.report(budget.counts());
    }
  }
  const result = budget.result(kind, labels);
  const bound = new Set(result.files.map((f) => f.path));
  const format = folderInputFormat(converted.files.filter((f) => bound.has(f.path)));
  return { ...result, ...(format ? { format } : {}), skipCounts: budget.skipCountsByReason(), ignoredByGitignore: budget.ignoredByGitignore };
}

function cancelledOr(error: unknown): never {
  if (error instanceof Error && error.message === 'cancelled') throw new vscode.CancellationError();
  throw error;
}

/** The files read as their text (decoded, converted, parsed), and what decides how (folderFile.ts). */
interface Converted {
  files: PlannedFile[];
  limits: Parameters<typeof plannedFolderFile>[3];
  session?: number;
}

async function readOne(uri: vscode.Uri, path: string, budget: GatherBudget, dirty: Map<string, vscode.TextDocument>, local: LocalScope | undefined, checked: CheckedCandidate | undefined, converted: Converted): Promise<void> {
  const doc = dirty.get(uri.toString());
  if (doc) {
    const text = doc.getText();
    if (budget.admit(path, Buffer.byteLength(text, 'utf8'))) budget.add(path, text);
    return;
  }
  if (local && uri.scheme === 'file') {
    const check = checked ?? (await checkCandidates([{ path, fsPath: uri.fsPath, ...local }], () => false))[0]!;
    const planned = check.kind === 'file' ? plannedFolderFile(path, uri.fsPath, check.size, converted.limits) : undefined;
    if (planned?.kind === 'file' && isConvertedFile(planned.file)) return readConvertedOne(planned.file, budget, local, converted);
    return readLocalOne(uri.fsPath, path, budget, check);
  }
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (!(stat.type & vscode.FileType.File)) return budget.exclude(path, 'special', 'not a regular file');
    if (!budget.admit(path, stat.size)) return;
    budget.add(path, await vscode.workspace.fs.readFile(uri));
  } catch {
    budget.unreadable(path);
  }
}

/**
 * A compressed log, a notebook or a PDF on this machine, read as its text with the checks of every read
 * in a folder (planReader.ts): decompressed within the per-file limit (a bomb is left out), a notebook's
 * cells, a PDF's pages under their markers (parsed in the PDF worker; one that cannot be read is left
 * out with the sentence why).
 */
async function readConvertedOne(file: PlannedFile, budget: GatherBudget, local: LocalScope, converted: Converted): Promise<void> {
  if (!budget.admit(file.path, file.bytes, true)) return;
  const into = new Uint8Array(budget.maxFileBytes + 1);
  const read = await readAnyPlannedInto(file, into, undefined, [local.rootReal]);
  if (read.kind === 'skipped') return budget.unreadable(file.path, read.skipped.detail ?? read.skipped.reason);
  if (read.kind === 'full') return budget.grewTooLarge(file.path, into.length);
  if (budget.add(file.path, into.slice(0, read.length))) converted.files.push(file);
}

interface LocalScope {
  root: string;
  rootReal: string;
}

/**
 * A file on this machine, as checkCandidates found it: findFiles follows symlinks, so a file it lists
 * may lie outside the folder (never read) or be reached through a link inside it (read at its own path
 * instead). Devices and FIFOs are skipped, and the read stops at the per-file limit whatever the stat said.
 */
async function readLocalOne(fsPath: string, path: string, budget: GatherBudget, checked: CheckedCandidate): Promise<void> {
  if (checked.kind === 'excluded') return budget.exclude(path, checked.reason, checked.detail);
  if (!budget.admit(path, checked.size)) return;
  try {
    const read = await readLocalFile(fsPath, { maxBytes: budget.maxFileBytes, noFollow: true });
    if (read.kind === 'read') budget.add(path, read.bytes);
    else if (read.kind === 'too-large') budget.grewTooLarge(path, Math.max(read.bytesSeen, read.statBytes));
    else budget.unreadable(path, read.kind === 'special' ? `became a ${read.special} while read` : 'became a link while read');
  } catch {
    budget.unreadable(path);
  }
}
