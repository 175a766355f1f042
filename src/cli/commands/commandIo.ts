// Output plumbing shared by `rlm show` and `rlm export`.

/** Where a command writes; process.stdout/stderr in the CLI, buffers in tests. */
export interface CommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}
