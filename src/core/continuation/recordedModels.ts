// The models a record says it ran with, as text to show and nothing else. A continued or forked run
// takes its provider, endpoint, models, keys and limits from the user's configuration: a record's
// `config` could name an attacker's server, and using it would send the user's key there. The record's
// values are read defensively (any field may hold anything) and clipped, since they are only shown.
import { clip } from '../../shared/text/plainText';
import { visibleControls } from '../../shared/text/untrustedText';

const SHOWN_CHARS = 80;

function field(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = (value as Record<string, unknown>)[name];
  return typeof v === 'string' && v.trim() !== '' ? clip(visibleControls(v.trim()), SHOWN_CHARS) : undefined;
}

function describeRef(ref: unknown): string | undefined {
  const model = field(ref, 'model');
  if (!model) return undefined;
  const provider = field(ref, 'provider');
  const base = field(ref, 'baseUrl');
  return `${provider ? `${provider} ` : ''}${model}${base ? ` at ${base}` : ''}`;
}

/** "openai gpt-4.1 at http://…" (and its sub model when another), or undefined when the record names none. */
export function describeRecordedModels(config: unknown): string | undefined {
  if (typeof config !== 'object' || config === null) return undefined;
  const { root, sub } = config as { root?: unknown; sub?: unknown };
  const rootText = describeRef(root);
  const subText = describeRef(sub);
  if (!rootText) return subText ? `sub model ${subText}` : undefined;
  return subText && subText !== rootText ? `${rootText}, sub model ${subText}` : rootText;
}

/** The models of this run, as the user configured them: "gpt-4.1-mini" or "gpt-4.1, sub gpt-4.1-mini". */
export function describeCurrentModels(root: { model: string }, sub: { model: string }): string {
  return root.model === sub.model ? root.model : `${root.model}, sub ${sub.model}`;
}

/** The line a continued run says before replaying: what is replayed, and whose models go on. */
export function replayNoticeLine(cells: number, turns: number, current: string, recorded: string | undefined): string {
  const replayed = `replaying ${cells} recorded cell${cells === 1 ? '' : 's'} of ${turns} turn${turns === 1 ? '' : 's'} in the sandbox (sub-calls answered from the record)`;
  return `${replayed} · models from your configuration (${current})${recorded ? `, not the record's (${recorded})` : ''}`;
}
