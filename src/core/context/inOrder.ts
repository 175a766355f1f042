// Runs an async step over many items with at most `concurrency` in flight, and hands the results on in
// the items' order: folders are read in parallel while `context` keeps its deterministic order, and
// only the window in flight is held in memory.
export async function forEachInOrder<T, R>(
  items: readonly T[],
  concurrency: number,
  start: (item: T, index: number) => Promise<R>,
  each: (result: R, item: T, index: number) => void | Promise<void>,
): Promise<void> {
  const window: Array<Promise<R>> = [];
  let next = 0;
  const launch = (): void => {
    while (window.length < concurrency && next < items.length) {
      const index = next++;
      const running = start(items[index]!, index);
      running.catch(() => undefined); // awaited in order below; this keeps an early failure from counting as unhandled
      window.push(running);
    }
  };
  launch();
  for (let index = 0; index < items.length; index++) {
    const result = await window.shift()!;
    launch();
    await each(result, items[index]!, index);
  }
}
