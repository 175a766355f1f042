// The next steps a failure sentence can offer, as buttons on every surface (notifications, the `@rlm`
// chat, the sidebar chat, the trajectory view): one list and one label each, so "Set API key..." reads
// the same wherever the sentence that asks for it is shown. No `vscode` import: the webviews use it too.

const NEXT_STEPS = ['setApiKey', 'configureModels', 'testConnection', 'showLog', 'openSettings', 'manageTrust', 'stop'] as const;

export type NextStep = (typeof NEXT_STEPS)[number];

export const NEXT_STEP_LABELS: Record<NextStep, string> = {
  setApiKey: 'Set API key...',
  configureModels: 'Configure models...',
  testConnection: 'Test connection',
  showLog: 'Show log',
  openSettings: 'Open settings',
  manageTrust: 'Manage Workspace Trust',
  stop: 'Stop',
};

/** Which stored key "Set API key..." is about, when the failure knows the server (else the command asks). */
export interface KeySlot {
  provider: string;
  baseUrl: string;
}

const KNOWN = new Set<string>(NEXT_STEPS);

export function isNextStep(value: unknown): value is NextStep {
  return typeof value === 'string' && KNOWN.has(value);
}
