// VS Code notifications render `[label](command:…)` (and https:, file:) as links, and a click on a
// command link runs that command with its arguments (the progress notification's Stop link is one).
// Model and file text reaches notifications: an answer's first line at a run's end, a recorded
// reference's path when it cannot be opened, a record's or a server's error. A file could so make the
// model answer "[Open the report]\\(command:workbench.action.terminal.sendSequence?…)" and one click would
// type into the user's terminal. Quick picks draw `$(name)` as icons, and a tab title shows controls raw.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstPlainLine } from '../../../src/shared/text/plainText';
import { noticeText, pickText } from '../../../src/shared/text/untrustedText';
import { viewTitle } from '../../../src/vscode/trajectory/viewTitle';

/** A link as a notification renders one: `[label](` then a URL of a linking scheme, without a space. */
const RENDERED_LINK = /\[[^\]]+\]\((?:https?:\/\/|command:|file:)[^)\s]+/i;
const COMMAND = 'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20x%7Csh%5Cn%22%7D';

describe('notification text', () => {
  it('an answer that hides a command link behind a Markdown escape reaches the notification as text', () => {
    // `[x]\(…)` is no link in Markdown; reduced to plain text (escapes dropped) it becomes one.
    const answer = `[Open the report]\\(${COMMAND})\n\nThe rest of the answer.`;
    const first = firstPlainLine(answer, 200);
    // Control: the first line as the end-of-run notification showed it did carry a rendered link.
    assert.match(first, RENDERED_LINK);
    const shown = noticeText(first);
    assert.doesNotMatch(shown, RENDERED_LINK);
    assert.equal(shown, `[Open the report] (${COMMAND})`, 'the text still says what it said');
  });

  it('a recorded reference path or an error that is a link in every form is inert, controls visible', () => {
    for (const path of [`[a.ts](${COMMAND})`, '[x](file:///etc/passwd)', '[x](https://example.com/beacon)', '[[x]](command:rlm.stop)', 'x](command:a) [y](command:b)']) {
      const shown = noticeText(`RLM: ${path} was not found in this workspace, so line 1 cannot be opened.`);
      assert.doesNotMatch(shown, RENDERED_LINK, path);
    }
    assert.equal(noticeText('a\x1b]8;;http://x\x07b\u202ec'), 'a\\x1b]8;;http://x\\x07b\\u202ec');
  });
});

describe('quick pick and tab text', () => {
  it('a question cannot draw the workbench\'s icons in a quick pick', () => {
    assert.equal(pickText('$(warning) Your key expired $(key)'), '\\$(warning) Your key expired \\$(key)');
    assert.equal(pickText('costs $5 (a lot)'), 'costs $5 (a lot)', 'a dollar sign alone stays');
  });

  it('a recorded question titles its tab with its controls visible (ESC, a right-to-left override)', () => {
    const title = viewTitle({ question: 'Why\x1b[2J \u202eexe.txt' });
    assert.equal(title, 'Why\\x1b[2J \\u202eexe.txt');
  });
});
