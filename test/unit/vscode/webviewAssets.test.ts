import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { WebviewAssets } from '../../../src/vscode/webviews/webviewAssets';

test('webview assets are read once each, and a file that cannot be read gives undefined (the page then links it)', () => {
  const reads: string[] = [];
  const assets = new WebviewAssets('/ext', (path) => {
    reads.push(path);
    if (path.endsWith('missing.js')) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    return `text of ${path}`;
  });
  assert.equal(assets.text('dist', 'webview', 'sidebar.js'), `text of ${join('/ext', 'dist', 'webview', 'sidebar.js')}`);
  assert.equal(assets.text('dist', 'webview', 'sidebar.js'), `text of ${join('/ext', 'dist', 'webview', 'sidebar.js')}`);
  assert.equal(assets.text('dist', 'webview', 'missing.js'), undefined);
  assert.equal(assets.text('dist', 'webview', 'missing.js'), undefined);
  assert.deepEqual(reads, [join('/ext', 'dist', 'webview', 'sidebar.js'), join('/ext', 'dist', 'webview', 'missing.js')]);
});
