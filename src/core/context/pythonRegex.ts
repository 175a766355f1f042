// Python `re` patterns carried to the host's engines for search() over a lazy folder. Each engine gets
// the pattern only when it means the same there: ripgrep (Rust regex, line-oriented, no look-around
// or back-references), else JavaScript's RegExp (look-around and back-references, ASCII \w \d \s),
// else the REPL scans the files in Python itself, slower but with Python's own semantics.

export interface PythonPattern {
  pattern: string;
  /** Python flags by letter: i (IGNORECASE), s (DOTALL), x (VERBOSE), a (ASCII). MULTILINE is implied. */
  flags: string;
}

interface Translated {
  /** For ripgrep: the pattern and flags, or why ripgrep cannot take it. */
  rg: { pattern: string; ignoreCase: boolean; dotAll: boolean; multiline: boolean } | { unsupported: string };
  /** For RegExp, or why only Python can run it. */
  js: { source: string; flags: string } | { unsupported: string };
}

const ONLY_PYTHON: Array<[RegExp, string]> = [
  [/\(\?>/, 'atomic groups (?>...)'],
  [/\(\?\(/, 'conditional groups (?(...)...)'],
  [/(?:[*+?}])\+/, 'possessive quantifiers'],
  [/\\N\{/, 'named characters \\N{...}'],
  [/\(\?[aiLmsux]*-?[aiLmsux]*:/, 'scoped inline flags (?flags:...)'],
];

/** Python syntax rewritten for RegExp and Rust, and the parts only Python has. */
export function translatePythonRegex(input: PythonPattern): Translated {
  let flags = input.flags;
  let body = stripComments(input.pattern);
  // Leading global inline flags, e.g. (?i) or (?ms): taken as flags (Python allows them only there).
  const leading = /^\(\?([aiLmsux]+)\)/.exec(body);
  if (leading) {
    flags += leading[1]!.replace(/[mLu]/g, '');
    body = body.slice(leading[0].length);
  }
  const python = (reason: string): Translated => ({ rg: { unsupported: reason }, js: { unsupported: reason } });
  if (/\(\?[aiLmsux]+\)/.test(body)) return python('inline flags after the start of the pattern');
  if (flags.includes('x')) return python('re.VERBOSE patterns');
  if (flags.includes('L')) return python('re.LOCALE');
  for (const [test, what] of ONLY_PYTHON) if (test.test(body)) return python(what);

  const common = body
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>')
    .replace(/\{,(\d+)\}/g, '{0,$1}');
  const jsSource = common
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '(?<![\\s\\S])')
    .replace(/\\Z/g, '(?![\\s\\S])')
    .replace(/\\U([0-9a-fA-F]{8})/g, (_m, hex: string) => `\\u{${parseInt(hex, 16).toString(16)}}`);
  const jsFlags = `gm${flags.includes('i') ? 'i' : ''}${flags.includes('s') ? 's' : ''}`;
  const js = compiles(jsSource, `${jsFlags}u`) ? { source: jsSource, flags: `${jsFlags}u` } : compiles(jsSource, jsFlags) ? { source: jsSource, flags: jsFlags } : { unsupported: 'syntax JavaScript regular expressions do not share' };

  let rg: Translated['rg'];
  if (/\(\?<?[=!]/.test(common)) rg = { unsupported: 'look-around' };
  else if (/\\[1-9]|\(\?P=/.test(common)) rg = { unsupported: 'back-references' };
  else if (/\\[AZ]/.test(common)) rg = { unsupported: '\\A and \\Z' };
  else if (flags.includes('a')) rg = { unsupported: 're.ASCII' };
  else {
    const dotAll = flags.includes('s');
    // A match may cross a line only through these: ripgrep then needs its multi-line mode.
    const multiline = dotAll || /\\n|\\s|\\W|\\D|\[\^|\\x0[aA]|\\012/.test(common);
    rg = { pattern: common, ignoreCase: flags.includes('i'), dotAll, multiline };
  }
  return { rg, js };
}

function compiles(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

/** Drops (?#...) comments, which neither other engine has. */
function stripComments(pattern: string): string {
  return pattern.replace(/\(\?#[^)]*\)/g, '');
}
