// The "Done when" core: an 8-digit secret in 50 MB found by scripted root code through the real SDK
// and the real REPL; the root never receives the context, and its window stays flat with size.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fence, isRootRequest, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';

const SECRET = '48213907';
const LINE = 'The quarterly ledger lists shipments, invoices and routine notes from the northern depot.\n';

function haystack(bytes: number): string {
  const lines = Math.max(2, Math.floor(bytes / LINE.length));
  const half = LINE.repeat(Math.floor(lines / 2));
  return `${half}Note: the vault code is ${SECRET}.\n${half}`;
}

function needleScript(request: FakeModelRequest): string {
  if (turnOf(request) === 0) {
    return 'I will search for the code.\n' + fence('import re\nm = re.search(r"vault code is (\\d{8})", context)\nfound = m.group(1)\nprint("match found:", m is not None, "digits:", len(found))');
  }
  return fence('FINAL_VAR("found")');
}

describe('RLM loop: needle in a large context', () => {
  let model: Harness;
  let repl: TestRepl;
  before(async () => {
    repl = makeRepl();
    model = await startModel('openai', needleScript);
  });
  after(async () => {
    await repl.dispose();
    await model.close();
  });

  async function ask(text: string): Promise<{ answer?: string; maxRootBytes: number; rootBodies: string[] }> {
    const first = model.server.completionRequests.length;
    const { result, events } = await runCollect({ question: 'What is the vault code?', context: { kind: 'text', text }, root: model.client, repl });
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    const requests = model.server.completionRequests.slice(first).filter((r) => r.parsed && isRootRequest(r.parsed));
    assert.equal(requests.length, 2);
    const reported = ofType(events, 'model.output').map((e) => e.requestBytes);
    assert.equal(reported.length, 2);
    return { answer: result.answer, maxRootBytes: Math.max(...requests.map((r) => r.bytes)), rootBodies: requests.map((r) => r.rawBody) };
  }

  it('finds the 8-digit secret in 50 MB with code, and the root never sees the context', async () => {
    const text = haystack(50 * 1024 * 1024);
    const started = Date.now();
    const big = await ask(text);
    const elapsed = Date.now() - started;
    assert.equal(big.answer, SECRET);
    const middle = text.slice(text.length / 2 - 150, text.length / 2 - 50);
    for (const body of big.rootBodies) {
      assert.ok(!body.includes(SECRET), 'a root request contained the secret');
      assert.ok(!body.includes(middle), 'a root request contained text from the middle of the context');
      assert.ok(body.length < 20_000, `a root request was ${body.length} bytes`);
    }
    const small = await ask(haystack(1024));
    assert.equal(small.answer, SECRET);
    const ratio = big.maxRootBytes / small.maxRootBytes;
    assert.ok(Math.abs(ratio - 1) <= 0.05, `largest root request: ${big.maxRootBytes} B for 50 MB vs ${small.maxRootBytes} B for 1 KB`);
    console.log(`# 50 MB needle run: ${elapsed} ms; largest root request ${big.maxRootBytes} B (50 MB) vs ${small.maxRootBytes} B (1 KB)`);
  });
});
