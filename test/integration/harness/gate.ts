// A gate a fake model's answer waits behind until the spec opens it: a spec that must see a turn
// still under way (the model thinking, the live figures) holds it as long as it needs, where a fixed
// delay would race the view's opening on a loaded machine.
export interface Gate {
  /** Resolves once `open` is called. */
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
