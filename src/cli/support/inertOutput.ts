// Everything the CLI prints for a person goes through this: the question, answer, cell errors and
// notes come from the model or the file, and an escape sequence in them would clear the screen,
// retitle the window, plant a hyperlink or move the cursor to hide lines. Control characters are
// shown as escapes; newlines and tabs stay. The CLI's own redraw sequences go through `control`.
// It applies whether or not the stream is a terminal now: a file written today is `cat` tomorrow.
import { visibleControls } from '../../shared/text/untrustedText';

interface TextOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface InertOutput extends TextOutput {
  /** The CLI's own terminal sequences (the progress line's redraw), written as they are. */
  control(sequence: string): void;
}

const INERT = Symbol('inert output');

export function inertOutput(out: TextOutput): InertOutput {
  if ((out as { [INERT]?: true })[INERT]) return out as InertOutput;
  return {
    [INERT]: true,
    write: (text: string) => out.write(visibleControls(text)),
    control: (sequence: string) => void out.write(sequence),
    get isTTY() {
      return out.isTTY;
    },
  } as InertOutput;
}
