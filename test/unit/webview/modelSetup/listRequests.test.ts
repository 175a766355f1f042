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

test('the roles are apart: an ask for one model leaves the other model\'s answer current', () => {
  const requests = new ListRequests();
  const root = requests.next('root');
  const sub = requests.next('sub');
  assert.equal(requests.isCurrent('root', root), true, 'an ask for the sub model voided the root model\'s');
  requests.next('root');
  assert.equal(requests.isCurrent('sub', sub), true, 'an ask for the root model voided the sub model\'s');
});
