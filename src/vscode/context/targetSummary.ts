// The sentence shown before anything is sent: what will be bound, how big, and what was left out.
import type { TargetDescription } from '../../core/context/contextTypes';
import { formatBytes, plural } from '../../shared/text/format';
import type { SkipReason } from './gatherBudget';

const REASON_TEXT: Record<SkipReason, string> = {
  binary: 'binary',
  'too-large': 'over the per-file size limit (rlm.maxFileSizeKb)',
  excluded: 'excluded',
  unreadable: 'unreadable',
  limit: 'over the total context limit (rlm.contextLimitMb)',
  special: 'devices, FIFOs or sockets (only regular files are read)',
  'link-outside': 'symlinks leading out of the folder (not followed)',
  'link-loop': 'symlink loops (not walked)',
  link: 'symlinks to files inside the folder (read at their own path)',
};

interface TargetSummary {
  /** One line for the modal's title. */
  headline: string;
  /** Further lines: skipped files by reason, with a few example paths. */
  details: string[];
}

export function summarizeTarget(
  target: TargetDescription,
  skipCounts: Partial<Record<SkipReason, number>>,
  ignoredByGitignore: number,
): TargetSummary {
  const where = target.paths.length === 1 ? target.paths[0] : `${target.paths.length} folders`;
  const headline = `Ask about ${plural(target.fileCount, 'file')} (${formatBytes(target.totalBytes)}) in ${where}?`;
  const details: string[] = [];
  for (const [reason, count] of Object.entries(skipCounts) as Array<[SkipReason, number]>) {
    if (!count) continue;
    const examples = target.skipped.filter((s) => s.reason === reason).slice(0, 3).map((s) => s.path);
    const more = count > examples.length ? `, and ${count - examples.length} more` : '';
    details.push(`Skipped ${count} ${REASON_TEXT[reason]}: ${examples.join(', ')}${more}.`);
  }
  if (ignoredByGitignore > 0) details.push(`${ignoredByGitignore} file${ignoredByGitignore === 1 ? ' is' : 's are'} ignored by .gitignore.`);
  details.push('The files stay in the local Python sandbox; the model sees only their sizes and what its code prints.');
  return { headline, details };
}

/** Refusal text when nothing could be bound, naming the most common reason. */
export function emptyTargetMessage(where: string, skipCounts: Partial<Record<SkipReason, number>>): string {
  const reasons = Object.entries(skipCounts).filter(([, n]) => (n ?? 0) > 0) as Array<[SkipReason, number]>;
  if (reasons.length === 0) return `No files were found in ${where}. Check rlm.include, rlm.exclude, files.exclude and .gitignore.`;
  const text = reasons.map(([reason, n]) => `${n} ${REASON_TEXT[reason]}`).join(', ');
  return `Nothing in ${where} can be bound as context: every file was skipped (${text}).`;
}
