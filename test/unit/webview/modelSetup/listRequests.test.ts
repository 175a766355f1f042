import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ListRequests } from '../../../../webview/modelSetup/listRequests';

test('only the answer to the newest ask of a role is current; a change of endpoint voids earlier asks', () => {
  const requests = new ListRequests();
  const first = requests.next('root');
  assert.equal(requests.isCurrent('root', first), true);
  const second = requests.next('root');
  assert.equal(requests.isCurrent('root', first), false, 'an answer overtaken by a newer ask');
  assert.equal(requests.isCurrent('root', second), true);
  // Another endpoint picked (one that asks nothing, like VS Code's models with none offered).
  requests.next('root');
  assert.equal(requests.isCurrent('root', second), false, 'an answer for the endpoint left behind');
});

test('the roles are apart: an ask for the sub model leaves the root model\'s answer current', () => {
  const requests = new ListRequests();
  const root = requests.next('root');
  const sub = requests.next('sub');
  assert.equal(requests.isCurrent('root', root), true);
  assert.equal(requests.isCurrent('sub', sub), true);
  assert.equal(requests.isCurrent('sub', root), false, 'numbers are never shared between roles');
});
