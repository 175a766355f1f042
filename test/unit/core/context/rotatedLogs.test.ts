// Rotated logs read oldest first (as logrotate numbers them, and by date with dateext), kept where their
// first member sorts; names that only look numbered are left alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { orderRotatedLogs } from '../../../../src/core/context/rotatedLogs';

const paths = (list: string[]): string[] => orderRotatedLogs(list.map((path) => ({ path }))).files.map((f) => f.path);

describe('orderRotatedLogs', () => {
  it('puts a numbered set oldest first, the current file last, compressed parts by their number', () => {
    const sorted = ['a.txt', 'logs/app.log', 'logs/app.log.1', 'logs/app.log.10.gz', 'logs/app.log.2.gz', 'logs/app.log.3.bz2', 'z.txt'];
    assert.deepEqual(paths(sorted), ['a.txt', 'logs/app.log.10.gz', 'logs/app.log.3.bz2', 'logs/app.log.2.gz', 'logs/app.log.1', 'logs/app.log', 'z.txt']);
    assert.deepEqual(orderRotatedLogs(sorted.map((path) => ({ path }))).sets, [{ log: 'logs/app.log', parts: 5 }]);
  });

  it('orders dated parts by date, then the current file', () => {
    assert.deepEqual(paths(['syslog', 'syslog-20261203.gz', 'syslog-20261204', 'syslog-20261201.xz']), ['syslog-20261201.xz', 'syslog-20261203.gz', 'syslog-20261204', 'syslog']);
  });

  it('keeps sets in different folders apart, and leaves names that are not rotated logs in path order', () => {
    const sorted = ['a/x.log', 'a/x.log.1', 'b/x.log', 'b/x.log.1', 'chapter.1', 'chapter.2', 'v1.2'];
    assert.deepEqual(paths(sorted), ['a/x.log.1', 'a/x.log', 'b/x.log.1', 'b/x.log', 'chapter.1', 'chapter.2', 'v1.2']);
    assert.equal(orderRotatedLogs(sorted.map((path) => ({ path }))).sets.length, 2);
  });

  it('treats rotated parts of a .log without its current file as a set', () => {
    assert.deepEqual(paths(['old/app.log.1.gz', 'old/app.log.2.gz']), ['old/app.log.2.gz', 'old/app.log.1.gz']);
  });
});
