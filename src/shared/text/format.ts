// How numbers, money, times and sizes read everywhere: the trajectory view, the sidebar, progress in
// VS Code and the CLI, `rlm show` and the exports. One place, so a run's cost reads the same in each.

/**
 * An amount of money: "$0.12", "≥ $0.12" for a lower bound. Sub-cent amounts keep two significant
 * digits, so cheap calls do not read as $0.00. A run's cost is worded by src/shared/text/costText.ts (which
 * knows local servers, plans and "no cost yet"), not here; this only prints amounts, and never "$0" for
 * an amount nobody knows.
 */
export function formatCost(usd: number | null | undefined, unknown = false): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd) || (unknown && usd === 0)) return 'price unknown';
  const digits = usd > 0 && usd < 0.01 ? Math.min(8, Math.ceil(-Math.log10(usd)) + 1) : 2;
  const text = `$${usd.toFixed(digits)}`;
  return unknown ? `≥ ${text}` : text;
}

// Whole counts are grouped by hand. `n.toLocaleString('en-US')` builds a new ICU formatter on each
// call in Chromium (about 16 µs; the trajectory view formats three counts for each of a 5,000-turn
// file's placeholders), and even one reused Intl.NumberFormat costs 20–40 ms to create in a fresh
// webview, on the path to the first rendered cell. Anything else (fractions, -0, NaN, ∞, huge
// values) goes to a formatter made on first use, which gives the same text toLocaleString gave.
let otherFormat: Intl.NumberFormat | undefined;

/** 12,345: a whole count with thousands separators, the same in every locale. */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) {
    otherFormat ??= new Intl.NumberFormat('en-US');
    return otherFormat.format(n);
  }
  const digits = String(n < 0 ? -n : n);
  let text = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = text.length; i < digits.length; i += 3) text += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${text}` : text;
}

/** 950, 1.2k, 12k, 1.23M, 12.3M. */
export function formatTokenCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`;
}

/** "12,345 in / 678 out": exact, for reports. */
export function formatTokenPair(input: number, output: number): string {
  return `${formatCount(input)} in / ${formatCount(output)} out`;
}

/** 420 ms, 1.5 s, 2 min 5 s; "–" when there is no duration. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  // Thresholds sit where rounding would otherwise print "1000 ms" or "60.0 s".
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** 512 B, 3.4 KB, 56.7 MB (binary units). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "1 sub-call", "2 sub-calls", "0 cells": a count with its noun, never "1 sub-calls" or "cell(s)". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}
