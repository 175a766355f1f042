// The view's export and the command propose the same file name (and both the workspace folder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportFileName } from '../../../src/vscode/trajectory/exportName';

test('an export is named after its record, or after the run when nothing is recorded yet', () => {
  assert.equal(exportFileName('/home/u/.vscode-server/data/User/globalStorage/rlm/runs/2026-12-05T07-00-00-ab12.rlm.jsonl', 'r1', 'md'), '2026-12-05T07-00-00-ab12.md');
  assert.equal(exportFileName('/tmp/imported.jsonl', 'r1', 'ipynb'), 'imported.ipynb');
  assert.equal(exportFileName(undefined, 'r1', 'md'), 'rlm-run-r1.md');
  assert.equal(exportFileName('', 'r2', 'md'), 'rlm-run-r2.md');
});
