// Waits for a condition instead of for a fixed time: a test that sleeps 300 ms and then looks is
// either slow on a quiet machine or flaky on a loaded one. Polls every few milliseconds and fails
// with what it waited for when the condition does not hold in time.
export async function until(condition: () => boolean | Promise<boolean>, what = 'the condition', timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
