// The model setup screen's data, without `vscode`: the endpoint list it offers (built from the
// presets, one entry per choice so a new provider is one more preset), the draft read from saved
// settings, the settings a draft writes, and how a listed price reads.
import type { ModelPricing, ProviderKind } from '../../core/models/modelTypes';
import { isNoChargeEndpoint, userPricing, type UserPriceTable } from '../../core/models/pricing';
import type { RoleDraft, SetupDraft, SetupEndpointOption } from '../../shared/modelSetupProtocol';
import type { ModelSetting } from '../settings/rlmSettings';
import { MODEL_PRESETS, normalizeBaseUrl, presetFor, validateBaseUrl } from './modelPresets';

/** A suggested cost limit for people who have never set one: a typical run costs cents. */
export const SUGGESTED_MAX_COST_USD = 1;

export function setupEndpoints(): SetupEndpointOption[] {
  const out: SetupEndpointOption[] = [];
  for (const p of MODEL_PRESETS) {
    if (p.id !== 'custom') {
      out.push({ id: p.id, label: p.label, description: p.description, provider: p.provider, baseUrl: p.baseUrl, editableUrl: false, needsKey: p.needsKey, suggestedModel: p.suggestedModel });
      continue;
    }
    // "Custom" is one choice per wire protocol, so the page needs no second question.
    out.push({ id: 'custom-openai', label: 'Other OpenAI-compatible server', description: 'vLLM, llama.cpp, TGI, LiteLLM...', provider: 'openai', baseUrl: '', editableUrl: true, needsKey: false, suggestedModel: '' });
    out.push({ id: 'custom-anthropic', label: 'Other Anthropic-compatible server', description: 'a proxy or gateway', provider: 'anthropic', baseUrl: '', editableUrl: true, needsKey: false, suggestedModel: '' });
  }
  return out;
}

function roleDraft(setting: ModelSetting, endpoints: readonly SetupEndpointOption[]): RoleDraft {
  const preset = presetFor(setting.provider, setting.baseUrl);
  const option = endpoints.find((e) => e.id === preset?.id) ?? endpoints.find((e) => e.editableUrl && e.provider === setting.provider) ?? endpoints[0];
  return { endpointId: option?.id ?? '', baseUrl: setting.baseUrl, model: setting.model, apiKey: '' };
}

/** The screen's starting point: what is saved, or the first endpoint's suggestion when nothing is. */
export function draftFromSettings(root: ModelSetting, sub: ModelSetting | undefined, maxCostUsd: number | undefined, endpoints: readonly SetupEndpointOption[]): SetupDraft {
  const rootDraft = roleDraft(root, endpoints);
  if (!root.model) {
    const first = endpoints.find((e) => e.id === rootDraft.endpointId);
    rootDraft.model = first?.suggestedModel ?? '';
  }
  return {
    root: rootDraft,
    ...(sub ? { sub: roleDraft(sub, endpoints) } : {}),
    maxCostUsd: maxCostUsd && maxCostUsd > 0 ? maxCostUsd : SUGGESTED_MAX_COST_USD,
  };
}

export interface ResolvedRole {
  setting: ModelSetting;
  option: SetupEndpointOption;
}

/** The setting a role's draft stands for, or a sentence saying what is missing. */
export function resolveRole(draft: RoleDraft, endpoints: readonly SetupEndpointOption[], roleName: string): ResolvedRole | string {
  const option = endpoints.find((e) => e.id === draft.endpointId);
  if (!option) return `Choose where the ${roleName} runs.`;
  const baseUrl = option.editableUrl ? draft.baseUrl.trim() : option.baseUrl;
  if (option.editableUrl) {
    if (baseUrl === '') return `Enter the URL of the ${roleName}'s server.`;
    const problem = validateBaseUrl(baseUrl);
    if (problem) return problem;
  }
  const model = draft.model.trim();
  if (model === '') return `Pick or type the ${roleName}'s name.`;
  return { setting: { provider: option.provider as ProviderKind, baseUrl, model }, option };
}

/** The rlm.* settings a draft writes (sub fields empty when sub-calls use the root model). */
export function settingsFor(root: ModelSetting, sub: ModelSetting | undefined, maxCostUsd: number): Array<[string, string | number]> {
  const sameAsRoot = !sub || (sub.provider === root.provider && normalizeBaseUrl(sub.baseUrl) === normalizeBaseUrl(root.baseUrl) && sub.model === root.model);
  return [
    ['root.provider', root.provider],
    ['root.baseUrl', root.baseUrl],
    ['root.model', root.model],
    ['sub.provider', sameAsRoot ? '' : sub.provider],
    ['sub.baseUrl', sameAsRoot ? '' : sub.baseUrl],
    ['sub.model', sameAsRoot ? '' : sub.model],
    ['maxCostUsd', Number.isFinite(maxCostUsd) && maxCostUsd > 0 ? maxCostUsd : 0],
  ];
}

function usd(n: number): string {
  return `$${Number.isInteger(n) ? n : n.toFixed(2).replace(/0$/, '')}`;
}

/** How a listed model's price reads next to its name. */
export function priceLabel(pricing: ModelPricing | null, isLocal: boolean): string {
  if (isLocal) return 'local (no charge)';
  if (!pricing) return 'price unknown';
  return `${usd(pricing.inputPerMTok)} in / ${usd(pricing.outputPerMTok)} out per M tokens`;
}

/**
 * A listed model's price as a run will charge it (see pricingFor in runLauncher): the user's
 * rlm.prices first, then no charge on this machine or the local network, then the known table.
 */
export function listedPriceLabel(model: string, catalogPricing: ModelPricing | null, baseUrl: string, prices: UserPriceTable | undefined): string {
  const user = userPricing(model, prices);
  if (user) return priceLabel(user, false);
  return priceLabel(catalogPricing, isNoChargeEndpoint(baseUrl));
}
