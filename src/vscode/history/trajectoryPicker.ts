// Picking a recorded run by its question, not its file name: the open run first (the trajectory tab
// in front, then any other open one), then the history newest first, then "Browse…" for any file.
// Used by "Open trajectory..." and "Export trajectory...".
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { HistoryItem } from '../../shared/sidebarState';
import { listHistory, readHistoryItem } from './historyIndex';
import { pickText } from '../../shared/text/untrustedText';

/** The views that can hold a recorded run (the custom editors' view types). */
const TRAJECTORY_VIEW_TYPES = ['rlm.trajectory', 'rlm.trajectoryAnyJsonl'];

interface PickItem extends vscode.QuickPickItem {
  path?: string;
  browse?: true;
}

/** Paths of the runs open in tabs, the one in front first. */
function openTrajectoryPaths(extra: Array<string | undefined> = []): string[] {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  const active = vscode.window.tabGroups.activeTabGroup.activeTab;
  const ordered = active ? [active, ...tabs.filter((t) => t !== active)] : tabs;
  const paths: string[] = [];
  for (const tab of ordered) {
    const input = tab.input;
    if (input instanceof vscode.TabInputCustom && TRAJECTORY_VIEW_TYPES.some((v) => input.viewType.endsWith(v)) && input.uri.scheme === 'file') paths.push(input.uri.fsPath);
  }
  for (const p of extra) if (p) paths.push(p);
  return [...new Set(paths)];
}

function describe(item: HistoryItem | undefined, path: string): { label: string; description: string; detail: string } {
  // A date in the user's own locale, once per picked file: not a count, and not on a hot path.
  // eslint-disable-next-line no-restricted-syntax
  const when = item ? new Date(item.startedAt).toLocaleString() : '';
  return {
    label: pickText(item?.question.replace(/\s+/g, ' ').trim() || basename(path)),
    description: [when, item?.status === 'completed' ? '' : item?.status].filter(Boolean).join(' · '),
    detail: pickText(basename(path)),
  };
}

export async function pickTrajectory(options: { purpose: 'open' | 'export'; directory: string; livePath?: string }): Promise<vscode.Uri | undefined> {
  const open = options.purpose === 'export' ? openTrajectoryPaths([options.livePath]) : [];
  const history = await listHistory(options.directory).catch(() => [] as HistoryItem[]);
  const byPath = new Map(history.map((h) => [h.path, h]));
  const items: PickItem[] = [];
  if (open.length) items.push({ label: 'Open now', kind: vscode.QuickPickItemKind.Separator });
  for (const path of open) {
    const item = byPath.get(path) ?? (await readHistoryItem(path).catch(() => undefined));
    items.push({ ...describe(item, path), iconPath: new vscode.ThemeIcon('eye'), path });
  }
  const rest = history.filter((h) => !open.includes(h.path));
  if (rest.length) items.push({ label: 'Recent runs', kind: vscode.QuickPickItemKind.Separator });
  for (const item of rest.slice(0, 200)) items.push({ ...describe(item, item.path), iconPath: new vscode.ThemeIcon('history'), path: item.path });
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: 'Browse…', description: 'a .rlm.jsonl or reference-format .jsonl file anywhere', iconPath: new vscode.ThemeIcon('folder-opened'), browse: true });
  const picked = await vscode.window.showQuickPick(items, {
    title: options.purpose === 'export' ? 'RLM: Export which run?' : 'RLM: Open which run?',
    placeHolder: 'Type to search the questions',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return undefined;
  if (picked.path) return vscode.Uri.file(picked.path);
  const chosen = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: options.purpose === 'export' ? 'Export this run' : 'Open this run',
    defaultUri: vscode.Uri.file(options.directory),
    filters: { 'RLM trajectories': ['jsonl'], 'All files': ['*'] },
  });
  return chosen?.[0];
}
