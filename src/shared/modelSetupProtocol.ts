// Messages between the one-screen model setup (webview/modelSetup) and its host panel
// (src/vscode/modelSetup/modelSetupPanel.ts). The endpoints offered are a list the host sends, so a new
// provider is one more entry, not a new branch in the page.

export type ModelRole = 'root' | 'sub';

/** One choice in the "Where does the model run?" list. */
export interface SetupEndpointOption {
  id: string;
  label: string;
  description: string;
  /** The wire protocol setting written for it (rlm.<role>.provider). */
  provider: string;
  baseUrl: string;
  /** The URL field is shown editable (custom servers). */
  editableUrl: boolean;
  needsKey: boolean;
  /** false: no API key field at all (VS Code's own models). */
  takesKey: boolean;
  /** Who lists the models, in the page's sentences: "the server", "VS Code". */
  modelSource: string;
  suggestedModel: string;
  /** Set when this choice cannot work here, saying why and what to do (no VS Code model is offered); never the default then. */
  unavailable?: string;
}

export interface RoleDraft {
  endpointId: string;
  baseUrl: string;
  model: string;
  /** Typed in this screen; empty keeps the stored key. Never sent back to the page. */
  apiKey: string;
}

export interface SetupDraft {
  root: RoleDraft;
  /** undefined: sub-calls use the root model. */
  sub?: RoleDraft;
  maxCostUsd: number;
}

export interface ListedModel {
  id: string;
  /** A display name when the id is not one ("GPT-4o · copilot"). */
  label?: string;
  /** "$3 / $15 per M tokens", "local (no charge)", "price unknown" or "included in your plan". */
  price: string;
}

export type SetupToPage =
  | { type: 'init'; endpoints: SetupEndpointOption[]; draft: SetupDraft; storedKeys: Record<ModelRole, boolean> }
  /** `error`: the list could not be read (shown as a problem); `hint`: nothing to list yet, and what to do (not a problem). */
  | { type: 'models'; role: ModelRole; requestId: number; models: ListedModel[]; error?: string; hint?: string }
  | { type: 'testResult'; role: ModelRole; ok: boolean; message: string }
  | { type: 'saved'; message: string }
  | { type: 'problem'; message: string };

export type SetupToHost =
  | { type: 'ready' }
  | { type: 'listModels'; role: ModelRole; requestId: number; draft: RoleDraft }
  | { type: 'test'; draft: SetupDraft }
  | { type: 'save'; draft: SetupDraft; thenTest: boolean };
