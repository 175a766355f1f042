// The selection an agent asks about: whole selected lines, merged, bound at their own line numbers
// (so search() hits and citations are the file's lines), and said in words for the confirmation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { alignedSelectionText, describeSelection, selectedLineCount, selectedLines, selectionLabel } from '../../../../src/core/agentAsk/agentSelection';
import { lookupForSource, resolveCitations } from '../../../../src/core/citations/citationResolve';
import { describeAgentSelection } from '../../../../src/core/agentAsk/agentPlanSummary';

const at = (line: number, character: number) => ({ line, character });
const range = (a: [number, number], b: [number, number]) => ({ start: at(...a), end: at(...b) });

describe('the selection as an agent\'s input', () => {
  it('takes whole lines, drops empty selections, merges touching ones and reads backward selections', () => {
    assert.deepEqual(selectedLines([range([39, 4], [78, 10])]), [{ startLine: 40, endLine: 79 }]);
    // Whole lines selected with the keyboard end at column 0 of the next line: that line is not taken.
    assert.deepEqual(selectedLines([range([9, 0], [20, 0])]), [{ startLine: 10, endLine: 20 }]);
    assert.deepEqual(selectedLines([range([5, 3], [5, 3])]), [], 'a cursor is not a selection');
    assert.deepEqual(selectedLines([range([30, 2], [25, 0])]), [{ startLine: 26, endLine: 31 }], 'selected from the bottom up');
    assert.deepEqual(selectedLines([range([99, 0], [99, 5]), range([9, 0], [12, 1]), range([13, 0], [14, 2]), range([11, 0], [11, 4])]), [
      { startLine: 10, endLine: 15 },
      { startLine: 100, endLine: 100 },
    ]);
  });

  it('binds the selected lines at their own line numbers, every other line before them empty', () => {
    const file = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6'];
    const text = alignedSelectionText([{ startLine: 2, endLine: 3 }, { startLine: 5, endLine: 5 }], (n) => file[n - 1]!);
    assert.equal(text, '\nl2\nl3\n\nl5\n');
    assert.equal(text.split('\n').indexOf('l5') + 1, 5);
    assert.equal(alignedSelectionText([], () => 'x'), '');
  });

  it('lets a citation of the file\'s own line resolve to the selected text', async () => {
    const file = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    const lines = selectedLines([range([39, 0], [79, 0])]);
    const text = alignedSelectionText(lines, (n) => file[n - 1]!);
    const resolved = await resolveCitations('See src/x.ts:42 and src/x.ts:79.', lookupForSource({ kind: 'text', text, label: 'src/x.ts' }));
    assert.deepEqual(resolved.references.map((r) => [r.path, r.line, r.text]), [['src/x.ts', 42, 'line 42'], ['src/x.ts', 79, 'line 79']]);
  });

  it('says which lines, in the confirmation and where a path is shown', () => {
    assert.equal(describeSelection('src/x.ts', [{ startLine: 40, endLine: 79 }]), 'the 40 selected lines of src/x.ts (lines 40-79)');
    assert.equal(describeSelection('src/x.ts', [{ startLine: 7, endLine: 7 }]), 'the selected line 7 of src/x.ts');
    const several = [{ startLine: 10, endLine: 20 }, { startLine: 40, endLine: 79 }, { startLine: 100, endLine: 100 }];
    assert.equal(describeSelection('src/x.ts', several), 'the 52 selected lines of src/x.ts (lines 10-20, 40-79 and 100)');
    assert.equal(selectedLineCount(several), 52);
    assert.equal(selectionLabel('src/x.ts', several), 'src/x.ts:10-20,40-79,100');
    assert.equal(
      describeAgentSelection(describeSelection('src/x.ts', [{ startLine: 40, endLine: 79 }]), 1300, { maxCostUsd: 0.5, maxWallTimeMs: 300_000 }),
      'Reads the 40 selected lines of src/x.ts (lines 40-79): 1.3 KB, bound at their own line numbers so references point into the file. Stops at $0.50 or 5 min 0 s, whichever comes first.',
    );
  });
});
