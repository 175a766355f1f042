import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DerivedViews, unknownViewText } from '../../../src/vscode/trajectory/derivedViewRegistry';

describe("derived views: a view's file comes from what the opener issued, never from the URI", () => {
  it('an issued id finds its view, of its own kind only', () => {
    const views = new DerivedViews();
    const id = views.issue({ kind: 'slice', abs: '/w/big.log', shown: 'big.log', line: 10, end: 12 });
    assert.deepEqual(views.lookup(id, 'slice'), { kind: 'slice', abs: '/w/big.log', shown: 'big.log', line: 10, end: 12 });
    assert.equal(views.lookup(id, 'pdf-page'), undefined, 'an id of one scheme is not served by another');
  });

  it('a forged id, a path in place of an id, or no id finds nothing', () => {
    const views = new DerivedViews();
    views.issue({ kind: 'pdf-page', abs: '/w/design.pdf', shown: 'design.pdf', page: 3 });
    for (const forged of ['/home/user/.ssh/id_rsa', '00000000-0000-4000-8000-000000000000', '', null]) assert.equal(views.lookup(forged, 'pdf-page'), undefined, String(forged));
    assert.match(unknownViewText('pdf-page'), /not available/);
  });

  it('the same view gets the same id (its tab is reused); the oldest is forgotten past the bound', () => {
    const views = new DerivedViews(3);
    const first = views.issue({ kind: 'decompressed', abs: '/w/a.log.gz', shown: 'a.log.gz', format: 'gzip', line: 1, end: 1 });
    assert.equal(views.issue({ kind: 'decompressed', abs: '/w/a.log.gz', shown: 'a.log.gz', format: 'gzip', line: 1, end: 1 }), first);
    const ids = [2, 3, 4].map((line) => views.issue({ kind: 'slice', abs: '/w/b.log', shown: 'b.log', line, end: line }));
    assert.equal(views.lookup(first, 'decompressed'), undefined, 'the oldest went first');
    for (const id of ids) assert.notEqual(views.lookup(id, 'slice'), undefined);
  });
});
