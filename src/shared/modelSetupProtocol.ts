// Messages between the one-screen model setup (webview/modelSetup) and its host panel
// (src/vscode/models/modelSetupPanel.ts). The endpoints offered are a list the host sends, so a new
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
  suggestedModel: string;
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
  /** "$3 / $15 per M tokens", "local (no charge)" or "price unknown". */
  price: string;
}

export type SetupToPage =
  | { type: 'init'; endpoints: SetupEndpointOption[]; draft: SetupDraft; storedKeys: Record<ModelRole, boolean> }
  | { type: 'models'; role: ModelRole; models: ListedModel[]; error?: string }
  | { type: 'testResult'; role: ModelRole; ok: boolean; message: string }
  | { type: 'saved'; message: string }
  | { type: 'problem'; message: string };

export type SetupToHost =
  | { type: 'ready' }
  | { type: 'listModels'; role: ModelRole; draft: RoleDraft }
  | { type: 'test'; draft: SetupDraft }
  | { type: 'save'; draft: SetupDraft; thenTest: boolean };
