// The model setup screen's data, without `vscode`: the endpoint list it offers (built from the
// presets and the models VS Code offers, one entry per choice so a new provider is one more preset),
// the draft read from saved settings, the settings a draft writes, and how a listed price reads.
import type { ModelPricing, ProviderKind } from '../../core/models/modelTypes';
import { isNoChargeEndpoint, userPricing, type UserPriceTable } from '../../core/models/pricing';
import type { RoleDraft, SetupDraft, SetupEndpointOption } from '../../shared/modelSetupProtocol';
import type { ModelSetting } from '../settings/rlmSettings';
import { MODEL_PRESETS, normalizeBaseUrl, presetFor, validateBaseUrl } from '../models/modelPresets';
import { NO_VSCODE_MODELS } from '../models/vscodeModelListing';

/** A suggested cost limit for people who have never set one: a typical run costs cents. */
export const SUGGESTED_MAX_COST_USD = 1;

/**
 * The choices offered, one per preset. `vscodeModels` are the ids VS Code offers now: the first is
 * suggested, and with none the "VS Code language models" choice stays listed but says why it cannot
 * be used, so a Copilot user who has not signed in learns what is missing.
 */
export function setupEndpoints(vscodeModels: readonly string[] = []): SetupEndpointOption[] {
  const out: SetupEndpointOption[] = [];
  for (const p of MODEL_PRESETS) {
    if (p.provider === 'vscode') {
      const count = vscodeModels.length;
      out.push({
        id: p.id,
        label: count ? p.label : `${p.label} (none available)`,
        description: count ? `${count} model${count === 1 ? '' : 's'} from GitHub Copilot or another extension; no key, included in your plan` : p.description,
        provider: p.provider,
        baseUrl: '',
        editableUrl: false,
        needsKey: false,
        takesKey: false,
        modelSource: 'VS Code',
        suggestedModel: vscodeModels[0] ?? '',
        ...(count ? {} : { unavailable: NO_VSCODE_MODELS }),
      });
      continue;
    }
    const common = { needsKey: p.needsKey, takesKey: true, modelSource: 'the server' };
    if (p.id !== 'custom') {
      out.push({ id: p.id, label: p.label, description: p.description, provider: p.provider, baseUrl: p.baseUrl, editableUrl: false, ...common, suggestedModel: p.suggestedModel });
      continue;
    }
    // "Custom" is one choice per wire protocol, so the page needs no second question.
    out.push({ id: 'custom-openai', label: 'Other OpenAI-compatible server', description: 'vLLM, llama.cpp, TGI, LiteLLM...', provider: 'openai', baseUrl: '', editableUrl: true, ...common, needsKey: false, suggestedModel: '' });
    out.push({ id: 'custom-anthropic', label: 'Other Anthropic-compatible server', description: 'a proxy or gateway', provider: 'anthropic', baseUrl: '', editableUrl: true, ...common, needsKey: false, suggestedModel: '' });
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
  let rootDraft = roleDraft(root, endpoints);
  if (!root.model) {
    // Nothing saved: a model VS Code already offers needs no key, so it comes first when there is one.
    const keyless = endpoints.find((e) => !e.takesKey && !e.unavailable && e.suggestedModel);
    if (keyless) rootDraft = { endpointId: keyless.id, baseUrl: '', model: keyless.suggestedModel, apiKey: '' };
    else {
      const first = endpoints.find((e) => e.id === rootDraft.endpointId);
      rootDraft.model = first?.suggestedModel ?? '';
    }
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

function sameModel(a: ModelSetting, b: ModelSetting): boolean {
  return a.provider === b.provider && normalizeBaseUrl(a.baseUrl) === normalizeBaseUrl(b.baseUrl) && a.model === b.model;
}

/** The rlm.* settings a draft writes (sub fields empty when sub-calls use the root model). */
export function settingsFor(root: ModelSetting, sub: ModelSetting | undefined, maxCostUsd: number): Array<[string, string | number]> {
  const sameAsRoot = !sub || sameModel(sub, root);
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

function where(setting: ModelSetting): string {
  return `${setting.provider} ${setting.model} at ${setting.baseUrl || 'the official endpoint'}`;
}

/**
 * The log lines of a saved setup: which protocol, model and server each role uses, so the log
 * answers "which server did it talk to?" without opening the settings.
 */
export function savedSetupLogLines(root: ModelSetting, sub: ModelSetting | undefined, maxCostUsd: number): string[] {
  return [
    `Root model set to ${where(root)}`,
    !sub || sameModel(sub, root) ? 'Sub-calls use the root model' : `Sub model set to ${where(sub)}`,
    Number.isFinite(maxCostUsd) && maxCostUsd > 0 ? `Cost limit set to ${usd(maxCostUsd)} per run` : 'No cost limit set',
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
