// One REPL session's calls run one after another (a bind, then cells, then close), in the order they
// were made; a call that fails does not stop the next.
export class TaskQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
