// How a run's status reads to a person, everywhere it is printed (the trajectory view, the sidebar's
// chat and history, the .md and .ipynb exports, `rlm show`): one word per status, so the same run is
// never "Stopped" in one place and "cancelled" in another. The recorded value stays the stable
// machine word (docs/trajectory-format.md); this is only what is shown. No `vscode` import.

const STATUS_WORDS: Record<string, string> = {
  completed: 'Answered',
  forced: 'Best answer at a limit',
  cancelled: 'Stopped',
  limit: 'Stopped at a limit',
  error: 'Failed',
  running: 'Running',
  incomplete: 'Incomplete (the file has no end)',
};

/** "Stopped" for 'cancelled', and so on; an unknown status (a newer file) as it was recorded. */
export function statusWord(status: string): string {
  return STATUS_WORDS[status] ?? status;
}
