// The models VS Code offers (GitHub Copilot's, or another extension's), as the model setup lists
// them: no key, and their cost is the user's plan, so they read "included in your plan", never a price.
import { INCLUDED_IN_PLAN } from '../../shared/text/costText';
import type { ListedModel } from '../../shared/modelSetupProtocol';
import type { LmSurface } from './lmSurface';

/** Said plainly wherever the setup would offer VS Code's models and there are none. */
export const NO_VSCODE_MODELS =
  'VS Code offers no language model here. Install and sign in to GitHub Copilot Chat, or another extension that provides models, then press Refresh list.';

type VscodeModelListing = { ok: true; models: ListedModel[] } | { ok: false; reason: string };

export async function listVscodeModels(surface: LmSurface): Promise<VscodeModelListing> {
  let offered;
  try {
    offered = await surface.selectChatModels();
  } catch (error) {
    return { ok: false, reason: `VS Code could not list its language models (${error instanceof Error ? error.message : String(error)}).` };
  }
  if (offered.length === 0) return { ok: false, reason: NO_VSCODE_MODELS };
  return { ok: true, models: offered.map((m) => ({ id: m.id, label: m.name === m.id ? m.vendor : `${m.name} · ${m.vendor}`, price: INCLUDED_IN_PLAN })) };
}
