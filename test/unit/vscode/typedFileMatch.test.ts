// A typed `#file:NAME` (no completion, as without Copilot) means the workspace file it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planChatRequest, typedFileMentions } from '../../../src/vscode/chat/chatRequestPlan';
import { matchTypedFile, typedFileProblem } from '../../../src/vscode/chat/typedFileMatch';

const FILES = ['src/retry.ts', 'src/core/retry.ts', 'src/http/client.ts', 'README.md', 'docs/Guide.md'];

test('a typed #file:NAME is a file of the workspace, not the whole workspace', () => {
  const plan = planChatRequest({ command: undefined, prompt: 'what does #file:retry.ts do?', references: [] });
  assert.deepEqual(plan, { kind: 'typedFiles', names: ['retry.ts'], question: 'what does retry.ts do?' });
  assert.deepEqual(planChatRequest({ command: undefined, prompt: 'compare #file:"a b.ts" with #file:c.ts.', references: [] }), {
    kind: 'typedFiles',
    names: ['a b.ts', 'c.ts'],
    question: 'compare a b.ts with c.ts.',
  });
  // The chat's own reference over the same text wins: it was completed, not typed.
  assert.equal(planChatRequest({ command: undefined, prompt: '#file:retry.ts why?', references: [{ range: [0, 14], label: 'src/retry.ts' }] }).kind, 'references');
  assert.equal(planChatRequest({ command: undefined, prompt: 'where is retry?', references: [] }).kind, 'workspace');
  assert.deepEqual(typedFileMentions('see (#file:x.ts), and a#file:y.ts', []).map((m) => m.name), ['x.ts'], 'punctuation is not part of the name; a#file: inside a word is not a mention');
});

test('a name resolves to the path itself, else the one file ending with it; several or none are said', () => {
  assert.deepEqual(matchTypedFile('src/retry.ts', FILES), { kind: 'one', path: 'src/retry.ts' });
  assert.deepEqual(matchTypedFile('./src\\retry.ts', FILES), { kind: 'one', path: 'src/retry.ts' });
  assert.deepEqual(matchTypedFile('core/retry.ts', FILES), { kind: 'one', path: 'src/core/retry.ts' });
  assert.deepEqual(matchTypedFile('client.ts', FILES), { kind: 'one', path: 'src/http/client.ts' });
  assert.deepEqual(matchTypedFile('guide.md', FILES), { kind: 'one', path: 'docs/Guide.md' }, 'case is a fallback');
  assert.deepEqual(matchTypedFile('try.ts', FILES), { kind: 'none' }, 'a name matches whole path segments only');
  const many = matchTypedFile('retry.ts', FILES);
  assert.deepEqual(many, { kind: 'many', paths: ['src/core/retry.ts', 'src/retry.ts'] });
  assert.equal(typedFileProblem('retry.ts', many as { kind: 'many'; paths: string[] }), '"retry.ts" matches 2 files in the workspace: src/core/retry.ts, src/retry.ts. Type more of the path to say which, e.g. #file:src/core/retry.ts.');
  assert.match(typedFileProblem('nope.ts', { kind: 'none' }), /^No file named "nope\.ts" is in the workspace/);
});
