// What a run's cost reads as in VS Code: the status bar, the progress notification, the chat and the
// trajectory view all format cost here, so they never disagree. Three honest cases besides a price:
// everything ran on a local server ("local (no charge)"), no price is known ("price unknown", never
// "$0.00"), or some calls are priced and some are not (a lower bound).
import { formatPlanCost } from './costWording';
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
