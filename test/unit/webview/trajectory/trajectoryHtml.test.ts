import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { trajectoryHtml } from '../../../../src/vscode/trajectory/trajectoryHtml';
import { canInlineScript, canInlineStyle } from '../../../../src/vscode/webviews/webviewSecurity';

describe('trajectoryHtml', () => {
  const input = { cspSource: 'https://file+.vscode-resource.example', scriptUri: 'https://r/dist/webview/trajectory.js', styleUri: 'https://r/media/trajectory.css', codiconUri: 'https://r/dist/webview/codicon.css', title: 'T "<x>"' };

  it('has a strict CSP: nothing by default, scripts only with the nonce, no inline or remote code', () => {
    const html = trajectoryHtml({ ...input, nonce: 'N0NCE' });
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-N0NCE'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*|https?:\/\/(?!file\+)/);
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(scripts, ['<script nonce="N0NCE" src="https://r/dist/webview/trajectory.js">']);
    assert.match(html, /<title>T &quot;&lt;x&gt;&quot;<\/title>/);
  });

  it('carries the first state as inert JSON that no text can break out of', () => {
    const hostile = { type: 'state', text: '</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)>', n: 1 };
    const html = trajectoryHtml({ ...input, nonce: 'N0NCE', initial: { stamp: 3, state: hostile } });
    const block = /<script type="application\/json" id="rlm-initial-state" data-stamp="3">([^<]*)<\/script>/.exec(html);
    assert.ok(block, 'one JSON block with no "<" inside it');
    assert.deepEqual(JSON.parse(block[1]!), hostile, 'the escaped JSON reads back to the same value');
    const executable = [...html.matchAll(/<script\b(?![^>]*type="application\/json")[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(executable, ['<script nonce="N0NCE" src="https://r/dist/webview/trajectory.js">'], 'still only the one nonce script runs');
    assert.equal(html.split('<script').length - 1, 2);
  });

  it('uses a fresh nonce on every render', () => {
    const nonceOf = (html: string) => /nonce-([^'"]+)/.exec(html)?.[1];
    const a = nonceOf(trajectoryHtml(input));
    const b = nonceOf(trajectoryHtml(input));
    assert.match(a ?? '', /^[A-Za-z0-9]{16,}$/);
    assert.notEqual(a, b);
  });
});

describe('webviewPage carries the app\'s script and stylesheet in the page when it safely can', () => {
  const base = { cspSource: 'https://r', scriptUri: 'https://r/app.js', styleUri: 'https://r/app.css', codiconUri: 'https://r/codicon.css', title: 't', nonce: 'N0NCE' };

  it('puts the script and the sheet in nonce\'d elements, keeps the codicon link, and asks the CSP for nothing more', () => {
    const html = trajectoryHtml({ ...base, scriptText: 'window.started = "<b>" + 1;', styleText: '.x { color: red; }' });
    assert.match(html, /<script nonce="N0NCE">window\.started = "<b>" \+ 1;<\/script>/);
    assert.match(html, /<style nonce="N0NCE">\.x \{ color: red; \}<\/style>/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/r\/codicon\.css" nonce="N0NCE">/);
    assert.doesNotMatch(html, /app\.js|app\.css/, 'nothing is loaded for what the page carries');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  });

  it('links a script or sheet whose text could end its element early, instead of breaking the page', () => {
    for (const scriptText of ['a = "</script><script>alert(1)</script>"', "a = '</SCRIPT >'", 'a = "<!--"; b = "<script>"']) {
      const html = trajectoryHtml({ ...base, scriptText, styleText: 'p{} </style><script>alert(2)</script>' });
      assert.match(html, /<script nonce="N0NCE" src="https:\/\/r\/app\.js"><\/script>/, scriptText);
      assert.match(html, /<link rel="stylesheet" href="https:\/\/r\/app\.css" nonce="N0NCE">/);
      assert.doesNotMatch(html, /alert/);
    }
    assert.ok(canInlineScript('a = "<!-- -->"; b = 1 < 2'), 'a comment opener alone is harmless');
    assert.ok(!canInlineStyle('</Style>'));
  });
});
