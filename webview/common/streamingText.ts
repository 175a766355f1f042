// The model's text while it streams, split into prose and code, so the chat shows the code as code
// (labelled as what will run next) and never a raw ```repl fence as prose. An unclosed fence at the
// end is code still being written. Pure: unit-tested.

type StreamSegment = { kind: 'prose'; text: string } | { kind: 'code'; text: string; complete: boolean };

const OPEN = /^ {0,3}(`{3,}|~{3,})[^\n]*$/;

export function splitStreamingText(text: string): StreamSegment[] {
  const segments: StreamSegment[] = [];
  const lines = text.split('\n');
  let prose: string[] = [];
  let code: string[] | undefined;
  let fence = '';
  const flushProse = (): void => {
    const joined = prose.join('\n').trim();
    if (joined) segments.push({ kind: 'prose', text: joined });
    prose = [];
  };
  for (const line of lines) {
    if (code === undefined) {
      const open = OPEN.exec(line);
      if (open) {
        flushProse();
        code = [];
        fence = open[1]!;
      } else prose.push(line);
      continue;
    }
    if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') {
      segments.push({ kind: 'code', text: code.join('\n'), complete: true });
      code = undefined;
      continue;
    }
    code.push(line);
  }
  if (code !== undefined) segments.push({ kind: 'code', text: code.join('\n'), complete: false });
  else flushProse();
  return segments;
}
