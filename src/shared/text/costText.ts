// What a run's cost reads as, wherever it is shown: the status bar, the progress notification, the
// `@rlm` chat's footer, the sidebar chat, the trajectory view's header and cells, the .md and .ipynb
// exports and the CLI all word cost here, so they never disagree (test/unit/shared/costWordingEverywhere
// .test.ts renders each). The honest cases besides a price: everything ran on a local server ("local (no
// charge)"), no price is known ("price unknown", never "$0.00"), the user's plan paid ("included in your
// plan", a VS Code language model gives no price), some calls are priced and some are not (a lower
// bound), and nothing called yet ("no cost yet").
import { formatCost } from './format';

interface CostFigures {
  /** USD of the calls with a known price; null or 0 when none was priced. */
  usd: number | null;
  /** True when any call's price was unknown. */
  unknown: boolean;
  /** True when every model of the run is served from this machine or the local network. */
  local: boolean;
  /** True when some call was paid by the user's plan (a VS Code language model): never "$0.00". */
  includedInPlan?: boolean;
}

export const INCLUDED_IN_PLAN = 'included in your plan';
const PRICE_UNKNOWN = 'price unknown';
const NO_COST_YET = 'no cost yet';
const LOCAL_NO_CHARGE = 'local (no charge)';

/** "$0.012", "local (no charge)", "price unknown", "≥ $0.012 (some prices unknown)", or "no cost yet" before any call. */
export function costText(cost: CostFigures): string {
  const usd = cost.usd !== null && Number.isFinite(cost.usd) ? cost.usd : null;
  if (cost.includedInPlan) return formatPlanCost(usd, cost.unknown, (priced, partly) => formatCost(priced, partly));
  if (cost.unknown) return usd === null || usd === 0 ? PRICE_UNKNOWN : `${formatCost(usd, true)} (some prices unknown)`;
  if ((usd === null || usd === 0) && cost.local) return LOCAL_NO_CHARGE;
  // Nothing charged and nothing unpriced yet: the run has not made a call.
  return usd === null ? NO_COST_YET : formatCost(usd);
}

/** The short form for one line of figures: the lower bound loses its note ("≥ $0.012"). */
export function costTextShort(cost: CostFigures): string {
  const text = costText(cost);
  return text.endsWith(' (some prices unknown)') ? text.slice(0, -' (some prices unknown)'.length) : text;
}

/**
 * `usd` is what the priced calls cost (0 when every call was on the plan); `unknown` when some price
 * is unknown. "included in your plan", "$0.12 + included in your plan", "≥ $0.12 + included in your plan".
 */
function formatPlanCost(usd: number | null | undefined, unknown: boolean, priced: (usd: number, unknown: boolean) => string): string {
  const known = usd !== null && usd !== undefined && Number.isFinite(usd) && usd > 0;
  if (!known) return unknown ? `${PRICE_UNKNOWN} + ${INCLUDED_IN_PLAN}` : INCLUDED_IN_PLAN;
  return `${priced(usd, unknown)} + ${INCLUDED_IN_PLAN}`;
}

/** A run's (or a turn's, a call's) totals as they are recorded: cost 0 until something is charged. */
interface CostTotals {
  costUsd: number | null;
  costUnknown: boolean;
  includedInPlan?: boolean;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The cost of recorded totals. A recorded 0 is not a price: with no tokens (nothing called yet) or
 * some price unknown it is "no cost yet" / "price unknown", on a local server "local (no charge)".
 * `local`: every model of the run is served with no per-token charge (isNoChargeEndpoint).
 */
export function totalsCostText(t: CostTotals, local: boolean, short = false): string {
  const nothingYet = (t.costUsd === null || t.costUsd === 0) && (t.costUnknown || t.inputTokens + t.outputTokens === 0);
  const figures = { usd: nothingYet ? null : t.costUsd, unknown: t.costUnknown, local, includedInPlan: t.includedInPlan === true };
  return short ? costTextShort(figures) : costText(figures);
}
