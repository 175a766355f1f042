// A configured model setting turned into what the engine's model client is made from: its key from
// the secret store, the response limits and the price the run charges. Used by runs, the model setup
// screen's test request and the model commands, so it sits with the models, below all three.
import { isNoChargeEndpoint, NO_CHARGE, userPricing, type UserPriceTable } from '../../core/models/pricing';
import type { ModelConfig } from '../../core/models/modelTypes';
import { MissingApiKeyError } from '../errors/extensionErrors';
import type { ModelSetting, RlmSettings } from '../settings/rlmSettings';

/**
 * The price a run charges for a model, injected into the model client: the user's rlm.prices first,
 * then no charge for a server on this machine or the local network, else the client's own table.
 */
export function pricingFor(setting: ModelSetting, prices: UserPriceTable | undefined): Pick<ModelConfig, 'pricing'> {
  const pricing = userPricing(setting.model, prices) ?? (isNoChargeEndpoint(setting.baseUrl) ? NO_CHARGE : undefined);
  return pricing ? { pricing } : {};
}

export async function modelConfigFor(
  setting: ModelSetting,
  apiKey: (s: ModelSetting) => Promise<string | undefined>,
  responseLimits: RlmSettings['responseLimits'],
  prices?: UserPriceTable,
): Promise<ModelConfig> {
  const key = await apiKey(setting);
  if (!key && setting.baseUrl === '') throw new MissingApiKeyError(setting);
  return {
    provider: setting.provider,
    model: setting.model,
    ...(setting.baseUrl ? { baseUrl: setting.baseUrl } : {}),
    ...(key ? { apiKey: key } : {}),
    ...responseLimits,
    ...pricingFor(setting, prices),
  };
}
