// How a cost reads when some or all of it is paid by the user's subscription (a VS Code language
// model such as Copilot's): VS Code gives no price, and "$0.00" would be false, so the words say
// where the cost went. The one place this wording is decided; formatCost delegates here.

export const INCLUDED_IN_PLAN = 'included in your plan';

/**
 * `usd` is what the priced calls cost (0 when every call was on the plan); `unknown` when some price
 * is unknown. "included in your plan", "$0.12 + included in your plan", "≥ $0.12 + included in your plan".
 */
export function formatPlanCost(usd: number | null | undefined, unknown: boolean, priced: (usd: number, unknown: boolean) => string): string {
  const known = usd !== null && usd !== undefined && Number.isFinite(usd) && usd > 0;
  if (!known) return unknown ? `cost unknown + ${INCLUDED_IN_PLAN}` : INCLUDED_IN_PLAN;
  return `${priced(usd, unknown)} + ${INCLUDED_IN_PLAN}`;
}
