// The vscode-free parts of the @rlm participant: what a request asks about, file anchors in the
// answer, threads that keep their conversation, and when progress lines are shown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isImplicitReference, planChatRequest, questionText } from '../../../src/vscode/chat/chatRequestPlan';
import { citationKey, contextPaths, mentionReference, splitAnswer } from '../../../src/vscode/chat/answerAnchors';
import type { GatheredContext } from '../../../src/vscode/run/runLauncher';
import { ChatThreads, threadKeyFromHistory } from '../../../src/vscode/chat/chatThreads';
import { ChatProgressLines } from '../../../src/vscode/chat/chatProgress';
import { Conversation } from '../../../src/vscode/run/conversation';
import { initialProgress } from '../../../src/vscode/run/runProgress';

describe('planChatRequest', () => {
  it('asks about the workspace by default, the active file with /file, and the references when there are some', () => {
    assert.deepEqual(planChatRequest({ command: undefined, prompt: ' where is retry? ', references: [] }), { kind: 'workspace', question: 'where is retry?' });
    assert.deepEqual(planChatRequest({ command: 'file', prompt: 'summarise', references: [] }), { kind: 'file', question: 'summarise' });
    assert.deepEqual(planChatRequest({ command: undefined, prompt: 'what does #file:a.ts export?', references: [{ range: [10, 20], label: 'src/a.ts' }] }), {
      kind: 'references',
      question: 'what does src/a.ts export?',
    });
  });

  it('reads /folder <path> <question>, quoted paths included, and says how to ask when a part is missing', () => {
    assert.deepEqual(planChatRequest({ command: 'folder', prompt: 'src/core which errors escape?', references: [] }), { kind: 'folder', path: 'src/core', question: 'which errors escape?' });
    assert.deepEqual(planChatRequest({ command: 'folder', prompt: '"my docs" what is missing', references: [] }), { kind: 'folder', path: 'my docs', question: 'what is missing' });
    const noPath = planChatRequest({ command: 'folder', prompt: '  ', references: [] });
    assert.equal(noPath.kind, 'usage');
    assert.match(noPath.kind === 'usage' ? noPath.message : '', /Name the folder after \/folder/);
    const noQuestion = planChatRequest({ command: 'folder', prompt: 'src', references: [] });
    assert.match(noQuestion.kind === 'usage' ? noQuestion.message : '', /Add a question after the folder "src"/);
    assert.equal(planChatRequest({ command: undefined, prompt: '', references: [] }).kind, 'usage');
    // A referenced folder with /folder: the reference is the folder.
    assert.equal(planChatRequest({ command: 'folder', prompt: '#folder:src what?', references: [{ range: [0, 11], label: 'src' }] }).kind, 'references');
  });

  it('tells the references VS Code attaches by itself from the ones the user typed', () => {
    assert.deepEqual(['vscode.implicit.viewport', 'vscode.implicit.selection', 'vscode.implicit.file', 'vscode.implicit', 'vscode.file', 'vscode.selection'].map(isImplicitReference), [true, true, true, true, false, false]);
  });

  it('replaces typed references from the end so earlier ranges stay right, and keeps untyped ones out', () => {
    assert.equal(questionText('compare #file:a and #file:b', [{ range: [8, 15], label: 'x/a.ts' }, { range: [20, 27], label: 'y/b.ts' }, { label: 'implicit' }]), 'compare x/a.ts and y/b.ts');
  });
});

describe('splitAnswer', () => {
  it('a hostile answer of one long run of path characters is split at once, not tried at every position (it held the host for minutes)', { timeout: 20_000 }, () => {
    for (const text of ['a'.repeat(2_000_000), 'a/'.repeat(1_000_000), `${'b-'.repeat(500_000)} see src/a.ts:3`]) {
      const parts = splitAnswer(text, ['src/a.ts']);
      assert.equal(parts.map((p) => p.text).join(''), text, 'the answer is kept whole');
    }
    assert.deepEqual(splitAnswer(`${'b-'.repeat(500_000)} see src/a.ts:3`, ['src/a.ts']).filter((p) => p.kind === 'file').map((p) => p.text), ['src/a.ts:3']);
  });

  const known = ['src/core/loop.ts', 'src/cli/main.ts', 'a/util.ts', 'b/util.ts'];

  it('turns mentions of the run files into anchors with lines, by full path or unique suffix', () => {
    const parts = splitAnswer('See `src/core/loop.ts:42` and loop.ts#L3-L9, also main.ts.', known);
    assert.deepEqual(parts, [
      { kind: 'markdown', text: 'See ' },
      { kind: 'file', path: 'src/core/loop.ts', text: 'src/core/loop.ts:42', line: 42 },
      { kind: 'markdown', text: ' and ' },
      { kind: 'file', path: 'src/core/loop.ts', text: 'loop.ts#L3-L9', line: 3, endLine: 9 },
      { kind: 'markdown', text: ', also ' },
      { kind: 'file', path: 'src/cli/main.ts', text: 'main.ts' },
      { kind: 'markdown', text: '.' },
    ]);
  });

  it('leaves unknown files, ambiguous names and code blocks alone', () => {
    const answer = 'util.ts and other.ts\n```\nsrc/core/loop.ts:1\n```\nend';
    assert.deepEqual(splitAnswer(answer, known), [{ kind: 'markdown', text: answer }]);
  });

  it("turns mentions of a notebook's cells and a PDF's pages into anchors in those terms", () => {
    const files = ['work/analysis.ipynb', 'docs/design.pdf', 'notes.txt'];
    const parts = splitAnswer('Loaded in `analysis.ipynb#cell=3:2`, plotted in work/analysis.ipynb#cell=4-6, tested at analysis.ipynb#cell=5:1-3; the budget is on design.pdf#page=18:3 (see docs/design.pdf#page=2).', files);
    assert.deepEqual(
      parts.filter((p) => p.kind === 'file'),
      [
        { kind: 'file', path: 'work/analysis.ipynb', text: 'analysis.ipynb#cell=3:2', anchor: { kind: 'cell', cell: 3, line: 2 } },
        { kind: 'file', path: 'work/analysis.ipynb', text: 'work/analysis.ipynb#cell=4-6', anchor: { kind: 'cell', cell: 4, endCell: 6 } },
        { kind: 'file', path: 'work/analysis.ipynb', text: 'analysis.ipynb#cell=5:1-3', anchor: { kind: 'cell', cell: 5, line: 1, endLine: 3 } },
        { kind: 'file', path: 'docs/design.pdf', text: 'design.pdf#page=18:3', anchor: { kind: 'page', page: 18, line: 3 } },
        { kind: 'file', path: 'docs/design.pdf', text: 'docs/design.pdf#page=2', anchor: { kind: 'page', page: 2 } },
      ],
    );
    assert.equal(parts.map((p) => p.text).join(''), 'Loaded in analysis.ipynb#cell=3:2, plotted in work/analysis.ipynb#cell=4-6, tested at analysis.ipynb#cell=5:1-3; the budget is on design.pdf#page=18:3 (see docs/design.pdf#page=2).');
    // As the loop records them: a page by its page key, the page as a whole at its line 1.
    assert.deepEqual(mentionReference('docs/design.pdf', { kind: 'page', page: 2 }), { path: 'docs/design.pdf#page=2', line: 1 });
    assert.deepEqual(mentionReference('docs/design.pdf', { kind: 'page', page: 18, line: 3, endLine: 5 }), { path: 'docs/design.pdf#page=18', line: 3, endLine: 5 });
    assert.deepEqual(mentionReference('work/analysis.ipynb', { kind: 'cell', cell: 3, line: 2 }), { path: 'work/analysis.ipynb', line: 1, notebookCell: { cell: 3, line: 2 } });
  });

  it('a PDF asked about alone is known by its pages; a cell of a PDF, a page of a notebook and unknown files stay text', () => {
    const pages = ['design.pdf#page=1', 'design.pdf#page=2'];
    assert.deepEqual(splitAnswer('see design.pdf#page=2:4', pages)[1], { kind: 'file', path: 'design.pdf', text: 'design.pdf#page=2:4', anchor: { kind: 'page', page: 2, line: 4 } });
    const files = ['analysis.ipynb', 'design.pdf'];
    for (const answer of ['design.pdf#cell=2', 'analysis.ipynb#page=3', 'other.ipynb#cell=1:1', '../../etc/x.pdf#page=1', '```\nanalysis.ipynb#cell=1\n```']) {
      assert.deepEqual(splitAnswer(answer, files), [{ kind: 'markdown', text: answer }], answer);
    }
  });
});

describe('ChatThreads', () => {
  const conversation = () => new Conversation({ repl: async () => { throw new Error('unused'); }, createBridgeRouter: async () => { throw new Error('unused'); } });

  it('gives a follow-up the same conversation through the key in the answer metadata, and a new chat a new one', () => {
    let n = 0;
    const threads = new ChatThreads(conversation, () => `t${++n}`);
    const first = threads.open(undefined);
    const history = [{ result: { metadata: { rlmThread: first.key } } }, { result: {} }];
    assert.equal(threadKeyFromHistory(history), 't1');
    assert.equal(threads.open(threadKeyFromHistory(history)).conversation, first.conversation);
    assert.notEqual(threads.open(undefined).conversation, first.conversation);
    assert.notEqual(threads.open('forgotten').conversation, first.conversation, 'an unknown key starts afresh');
  });

  it('ends the least recently used thread past the limit', async () => {
    let n = 0;
    let made = 0;
    const ended: string[] = [];
    const threads = new ChatThreads(() => {
      const c = conversation();
      const id = `c${++made}`;
      c.end = async () => void ended.push(id);
      return c;
    }, () => `t${++n}`);
    const keys = [1, 2, 3, 4].map(() => threads.open(undefined).key);
    threads.open(keys[0]);
    threads.open(undefined);
    assert.equal(threads.size, 4);
    assert.deepEqual(ended, ['c2'], 't1 was used again, so t2 is the oldest');
  });
});

describe('ChatProgressLines', () => {
  it('adds a line per new turn, and for new sub-calls at most once per interval', () => {
    const lines = new ChatProgressLines(1000);
    assert.equal(lines.next({ ...initialProgress(), activity: 'starting' }, 0), undefined, 'nothing before the first turn');
    const p = { ...initialProgress(), turn: 1, activity: 'waiting for the model' };
    assert.match(lines.next(p, 0) ?? '', /^turn 1 · 0 sub-calls · 0 tokens · no cost yet · waiting for the model$/);
    assert.equal(lines.next(p, 10), undefined);
    assert.equal(lines.next({ ...p, subCalls: 3 }, 500), undefined, 'too soon after the last line');
    assert.match(lines.next({ ...p, subCalls: 3 }, 1200) ?? '', /3 sub-calls/);
    assert.match(lines.next({ ...p, turn: 2, subCalls: 3, costUsd: 0, includedInPlan: true }, 1300) ?? '', /turn 2 .* included in your plan/);
    assert.equal(lines.next({ ...p, turn: 3, finished: true }, 5000), undefined);
  });
});

describe('contextPaths and citationKey', () => {
  const target = (kind: GatheredContext['target']['kind'], paths: string[]): GatheredContext['target'] => ({ kind, paths, totalBytes: 10, fileCount: paths.length, skipped: [] });
  const planFile = (path: string): { path: string; abs: string; bytes: number } => ({ path, abs: `/w/${path}`, bytes: 1 });
  const plan = (shape: 'text' | 'files', paths: string[]): GatheredContext['source'] => ({
    kind: 'plan',
    plan: { shape, files: paths.map(planFile), head: new Uint8Array(), totalBytes: 1, maxFileBytes: 1, maxTotalBytes: 1, target: target(shape === 'text' ? 'file' : 'folder', paths) },
  });

  it('knows the bound files of any source (a lazy folder\'s planned files too) and which runs are one text', () => {
    assert.deepEqual(contextPaths(undefined), { single: false, known: [] });
    assert.deepEqual(contextPaths({ source: { kind: 'text', text: 'x', label: 'src/a.ts' }, target: target('file', ['src/a.ts']) }), { single: true, known: ['src/a.ts'] });
    assert.deepEqual(contextPaths({ source: { kind: 'files', files: [{ path: 'a/x.ts', content: '' }, { path: 'b/y.ts', content: '' }] }, target: target('folder', ['.']) }), { single: false, known: ['a/x.ts', 'b/y.ts'] });
    assert.deepEqual(contextPaths({ source: plan('files', ['big/one.log', 'big/two.log']), target: target('folder', ['big']) }), { single: false, known: ['big/one.log', 'big/two.log'] });
    assert.deepEqual(contextPaths({ source: plan('text', ['huge.log']), target: target('file', ['huge.log']) }), { single: true, known: ['huge.log'] });
  });

  it('keys a citation by path and lines, and by lines alone when one text was asked about', () => {
    assert.equal(citationKey(false, 'src/a.ts', 3, undefined), 'src/a.ts:3-3');
    assert.equal(citationKey(false, 'src/a.ts', 3, 9), 'src/a.ts:3-9');
    assert.notEqual(citationKey(false, 'src/a.ts', 3, 9), citationKey(false, 'src/b.ts', 3, 9));
    // A single text: the loop names it after the file or "context", the answer by its short name.
    assert.equal(citationKey(true, 'context', 3, undefined), citationKey(true, 'a.ts', 3, 3));
  });
});
