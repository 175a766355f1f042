// Multiple-choice questions over a source tree, with answers computed from the files themselves. The
// tree is generated from the task's seed (syntheticSourceTree.ts) unless `rlm eval --code-root` names
// a real one.
import { callingFileCounts, functionDefinitions, filesCalling, packageManifests } from './codeFacts';
import { CodeCorpusError, selectFiles } from './codeCorpus';
import { SeededRandom } from './seededRandom';
import { syntheticSourceTree } from './syntheticSourceTree';
import { formatLength } from './taskLength';
import { CHARS_PER_TOKEN } from './taskTypes';
import type { BenchTask, TaskRequest } from './taskTypes';
import type { ContextFile } from '../../core/context/contextTypes';

export type CodeQuestionKind = 'defines' | 'callers' | 'dependsOn';
const KINDS: readonly CodeQuestionKind[] = ['defines', 'callers', 'dependsOn'];
const CHOICE_LETTERS = ['A', 'B', 'C', 'D'] as const;

interface Built {
  question: string;
  correct: string;
  distractors: string[];
}

/** `corpusRoot`: a real source tree to draw files from; undefined: the generated tree. */
export function generateCode(request: TaskRequest, corpusRoot: string | undefined, kind?: CodeQuestionKind): BenchTask {
  const rng = new SeededRandom(request.seed);
  const chars = request.lengthTokens * CHARS_PER_TOKEN;
  const files = corpusRoot === undefined ? syntheticSourceTree(chars, rng) : selectFiles(corpusRoot, chars, rng);
  const first = kind ?? KINDS[request.index % KINDS.length]!;
  // A small selection may hold no package.json or no unique definition: try the other kinds in turn.
  const order = [first, ...KINDS.filter((k) => k !== first)];
  let built: Built | undefined;
  for (const k of order) {
    built = buildQuestion(k, files, rng);
    if (built) break;
  }
  if (!built) throw new CodeCorpusError(corpusRoot ?? '(generated source tree)', `no code question can be asked about the ${files.length} files selected; try a larger length`);
  const choices = rng.shuffle([built.correct, ...built.distractors.slice(0, 3)]);
  const letter = CHOICE_LETTERS[choices.indexOf(built.correct)]!;
  const listed = choices.map((c, i) => `${CHOICE_LETTERS[i]}) ${c}`).join('\n');
  const contextChars = files.reduce((s, f) => s + f.content.length, 0);
  return {
    id: `code-${formatLength(request.lengthTokens)}-${request.index}`,
    suite: 'code',
    lengthTokens: request.lengthTokens,
    seed: request.seed,
    context: { kind: 'files', files },
    contextChars,
    question: `The context is a source tree (a dict from file path to text). ${built.question}\n${listed}\nAnswer with the letter of the correct choice only.`,
    answer: letter,
    scorer: 'multipleChoice',
    choices,
  };
}

function buildQuestion(kind: CodeQuestionKind, files: readonly ContextFile[], rng: SeededRandom): Built | undefined {
  if (kind === 'dependsOn') {
    const pkgs = packageManifests(files);
    const users = new Map<string, string[]>();
    for (const p of pkgs) for (const d of p.dependencies) users.set(d, [...(users.get(d) ?? []), p.name]);
    const unique = [...users].filter(([, names]) => names.length === 1).map(([dep]) => dep).sort();
    const names = [...new Set(pkgs.map((p) => p.name))];
    if (unique.length === 0 || names.length < 4) return undefined;
    const dep = rng.pick(unique);
    const owner = users.get(dep)![0]!;
    return {
      question: `Which package's package.json lists \`${dep}\` under "dependencies"?`,
      correct: owner,
      distractors: rng.shuffle(names.filter((n) => n !== owner)),
    };
  }
  const defs = functionDefinitions(files);
  if (kind === 'defines') {
    const unique = [...defs].filter(([, where]) => where.size === 1).map(([name]) => name).sort();
    if (unique.length === 0 || files.length < 4) return undefined;
    const name = rng.pick(unique);
    const owner = [...defs.get(name)!][0]!;
    // Files that mention the name without defining it are the hardest distractors; others fill up.
    const mentions = files.filter((f) => f.path !== owner && String(f.content).includes(name)).map((f) => f.path);
    const others = files.filter((f) => f.path !== owner && !mentions.includes(f.path)).map((f) => f.path);
    return {
      question: `Which file defines the function \`${name}\` (with \`function ${name}(\`)?`,
      correct: owner,
      distractors: [...rng.shuffle(mentions), ...rng.shuffle(others)],
    };
  }
  const callers = callingFileCounts(files);
  const candidates = [...defs.keys()].sort().filter((name) => {
    const n = callers.get(name) ?? 0;
    return n >= 2 && n <= 60;
  });
  if (candidates.length === 0) return undefined;
  const name = rng.pick(candidates);
  const count = filesCalling(files, name).length;
  const offsets = rng.shuffle([-3, -2, -1, 1, 2, 3, 4, 5]).filter((o) => count + o >= 0);
  return {
    question:
      `How many files contain a call to \`${name}\`, i.e. the text \`${name}(\` (spaces allowed before the parenthesis, ` +
      `not part of a longer identifier; method calls such as \`x.${name}(\` count) anywhere other than directly after the keyword \`function\`?`,
    correct: String(count),
    distractors: offsets.map((o) => String(count + o)),
  };
}
