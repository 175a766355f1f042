// Lets a long synchronous job (walking or reading a large folder) give the event loop a turn every
// `sliceMs`, so timers, sockets and the REPL's messages are served while it runs.
export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = 8) {}

  /** Resolves at once within a slice; after it, on the next turn of the event loop. `sliceMs` overrides the slice length. */
  async yieldIfDue(sliceMs = this.sliceMs): Promise<void> {
    if (performance.now() - this.sliceStart < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}
