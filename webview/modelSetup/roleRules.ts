// What the model setup page does to a role's fields when the user changes something, without the DOM:
// what the sub model starts as when "a different model for sub-calls" is ticked, what the model name
// becomes when the endpoint changes, and when a shown test outcome no longer describes the form.
import type { RoleDraft, SetupEndpointOption } from '../../src/shared/modelSetupProtocol';

/** What the page knows of a role's model list: shown under the model field. */
interface ListState {
  /** The ids the server (or VS Code) listed; empty while asking or after a failure. */
  models: readonly string[];
  /** The sentence shown; `bad` marks it as an error. */
  text: string;
  bad: boolean;
}

/**
 * The sub model's fields when the user ticks "use a different model for sub-calls". Until the user
 * chooses a sub model of their own (saved earlier, or edited on this page), it starts as a copy of the
 * root model as the form shows it now — same endpoint, server URL, model and typed key (the key is
 * kept per endpoint, so it is the same key) — so nothing changes until the user changes something.
 */
export function subOnTick(root: RoleDraft, sub: RoleDraft, subIsUsersOwn: boolean): RoleDraft {
  return subIsUsersOwn ? sub : { ...root };
}

/**
 * The sub model's list line when it starts as a copy of the root: the root's list when it was read, and
 * otherwise a plain note rather than a second copy of the root's error — the user has neither tested
 * nor changed anything for the sub model yet.
 */
export function copiedListState(root: ListState): ListState {
  if (!root.bad && root.models.length) return root;
  return { models: [], text: 'Same as the root model until you change it here.', bad: false };
}

/**
 * The model name after the user picks another endpoint: that endpoint's suggested model, or nothing
 * (the field then offers the endpoint's listed models). The previous endpoint's name is never kept: a
 * model of one provider is almost never served by another, and a leftover name fails only at run time.
 */
export function modelAfterEndpointChange(option: SetupEndpointOption): string {
  return option.suggestedModel;
}

/** The model field's placeholder: what to do, with how many names the server offered. */
export function modelPlaceholder(option: SetupEndpointOption | undefined, listed: number): string {
  if (listed === 1) return 'Pick the listed model or type a name';
  if (listed > 1) return `Pick one of the ${listed} listed models or type a name`;
  if (option && !option.takesKey) return 'Pick one of the models VS Code offers';
  return 'Type the model name';
}

/** The fields whose change makes a shown "✓ Connected" (or "✗ …") stale: it was about other values. */
export function testOutcomeStale(tested: RoleDraft, now: RoleDraft): boolean {
  return tested.endpointId !== now.endpointId || tested.baseUrl.trim() !== now.baseUrl.trim() || tested.model.trim() !== now.model.trim() || tested.apiKey !== now.apiKey;
}
