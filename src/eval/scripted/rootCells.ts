// The Python a competent RLM writes for each task, turn by turn: look first, then work over slices with
// sub-calls (or with code alone when sub-calls are disabled), then answer from a variable it built.
import { PYTHON_CLASSIFIER, SCRIPTED_LABELS } from './ruleClassifier';
import type { ParsedQuestion } from './questionParse';
import { COUNT_PROMPT, DEFINES_PROMPT, NEEDLE_PROMPT, SEPARATOR, usersPrompt } from './subPrompts';

/** Characters per sub-call slice: well inside a 128k-token sub window, and few calls even at 10M tokens. */
const SLICE_CHARS = 200_000;

const py = (value: unknown): string => JSON.stringify(value);

export const LOOK_CELL = [
  'print(type(context).__name__, len(context))',
  'if isinstance(context, str):',
  '    print(context[:300])',
  'else:',
  '    print(list(context)[:5])',
].join('\n');

const CHUNK_LINES = [
  'def line_chunks(text, size):',
  '    out, cur, n = [], [], 0',
  '    for line in text.splitlines():',
  '        cur.append(line)',
  '        n += len(line) + 1',
  '        if n >= size:',
  "            out.append('\\n'.join(cur))",
  '            cur, n = [], 0',
  '    if cur:',
  "        out.append('\\n'.join(cur))",
  '    return out',
  `chunks = line_chunks(context, ${SLICE_CHARS})`,
].join('\n');

function niahWork(noSub: boolean): string {
  if (noSub) return ['import re', "keys = re.findall(r'secret key is (\\d+)', context)", 'print(keys[:5])'].join('\n');
  return [
    'import re',
    "positions = [m.start() for m in re.finditer(r'secret key', context)]",
    '# Read the lines around each hit with a sub-model; without a hit, fall back to reading every slice.',
    'if positions:',
    '    slices = [context[max(0, p - 300): p + 300] for p in positions[:20]]',
    'else:',
    CHUNK_LINES.replace(/^/gm, '    '),
    '    slices = chunks',
    `replies = llm_query_batched([${py(NEEDLE_PROMPT + SEPARATOR)} + s for s in slices])`,
    'keys = [r.strip() for r in replies if r.strip().isdigit()]',
    "print(len(positions), 'hits;', len(slices), 'slices read;', replies[:5])",
  ].join('\n');
}

/** Pairs: the users of each of the two labels of the condition (all users' label sets without sub-calls). */
function recordsWork(noSub: boolean, pair?: { a: string; b: string }): string {
  const perUser = pair !== undefined;
  if (noSub) {
    return [
      PYTHON_CLASSIFIER.trim(),
      'recs = records(context)',
      `counts = {l: 0 for l in ${py(SCRIPTED_LABELS)}}`,
      'user_labels = {}',
      'for user, label in recs:',
      '    if label in counts:',
      '        counts[label] += 1',
      "    user_labels.setdefault(user, set()).add(label or 'unclassified')",
      "print(len(recs), 'records;', counts)",
    ].join('\n');
  }
  const parse = perUser
    ? [
        'user_labels = {}',
        'for r in replies:',
        '    for row in r.splitlines():',
        "        label, _, ids = row.partition(':')",
        "        label = label.strip().strip('`').lower()",
        "        for x in ids.replace(',', ' ').split():",
        "            if x.strip('`').isdigit():",
        "                user_labels.setdefault(int(x.strip('`')), set()).add(label)",
        "print(len(chunks), 'slices;', len(failed), 'failed;', len(user_labels), 'users seen')",
      ]
    : [
        `counts = {l: 0 for l in ${py(SCRIPTED_LABELS)}}`,
        'for r in replies:',
        '    for row in r.splitlines():',
        "        label, _, n = row.rpartition(':')",
        "        label = label.strip().strip('`').lower()",
        '        if label in counts and n.strip().isdigit():',
        '            counts[label] += int(n.strip())',
        "print(len(chunks), 'slices;', len(failed), 'failed;', counts)",
      ];
  return [
    CHUNK_LINES,
    `replies = llm_query_batched([${py((pair ? usersPrompt(pair.a, pair.b) : COUNT_PROMPT) + SEPARATOR)} + c for c in chunks])`,
    "failed = [r for r in replies if r.startswith('[ERROR]')]",
    ...parse,
  ].join('\n');
}

function codeWork(q: Extract<ParsedQuestion, { suite: 'code' }>, noSub: boolean): string {
  const lines = ['import re, json', `NAME = ${py(q.name)}`];
  if (q.kind === 'defines') {
    lines.push(
      "pat = re.compile(r'\\bfunction\\s*\\*?\\s*' + re.escape(NAME) + r'\\s*\\(')",
      'hits = [p for p, t in context.items() if pat.search(t)]',
    );
    if (noSub) lines.push('found = hits');
    else {
      lines.push(
        '# Confirm each hit by showing a sub-model the code around it.',
        'snippets = []',
        'for p in hits:',
        '    m = pat.search(context[p])',
        '    snippets.append(context[p][max(0, m.start() - 300): m.end() + 300])',
        `verdicts = llm_query_batched([${py(DEFINES_PROMPT)} + f" \`{NAME}\` (with \`function {NAME}(\`)? Reply YES or NO." + ${py(SEPARATOR)} + s for s in snippets]) if snippets else []`,
        "found = [p for p, v in zip(hits, verdicts) if v.strip().upper().startswith('YES')]",
      );
    }
  } else if (q.kind === 'callers') {
    lines.push(
      "call = re.compile(r'(?<![\\w$])' + re.escape(NAME) + r'\\s*\\(')",
      'def calls(t):',
      '    for m in call.finditer(t):',
      "        if not re.search(r'function\\s*\\*?\\s*$', t[max(0, m.start() - 20): m.start()]):",
      '            return True',
      '    return False',
      'found = [str(sum(1 for t in context.values() if calls(t)))]',
    );
  } else {
    lines.push(
      'found = []',
      'for p, t in context.items():',
      "    if p == 'package.json' or p.endswith('/package.json'):",
      '        try:',
      '            j = json.loads(t)',
      '        except Exception:',
      '            continue',
      "        deps = j.get('dependencies') if isinstance(j, dict) else None",
      "        if isinstance(j.get('name'), str) and isinstance(deps, dict) and NAME in deps:",
      "            found.append(j['name'])",
    );
  }
  lines.push("print('found:', found[:10])");
  return lines.join('\n');
}

/** The cell that does the task's work (turn 2), given the parsed question. */
export function workCell(q: ParsedQuestion, noSub: boolean): string {
  switch (q.suite) {
    case 'niah':
      return niahWork(noSub);
    case 'oolong':
      return recordsWork(noSub);
    case 'pairs':
      return recordsWork(noSub, { a: q.a, b: q.b });
    case 'code':
      return codeWork(q, noSub);
  }
}

/** The cell that turns what the work cell built into the answer and finishes (turn 3). */
export function answerCell(q: ParsedQuestion): string {
  const finish = 'print(repr(result)[:300])\nFINAL_VAR("result")';
  switch (q.suite) {
    case 'niah':
      return `result = keys[0] if keys else "NONE"\n${finish}`;
    case 'oolong':
      if (q.kind === 'count') return `result = str(counts[${py(q.label)}])\n${finish}`;
      if (q.kind === 'compare') {
        return [
          `a, b = counts[${py(q.a)}], counts[${py(q.b)}]`,
          "result = 'more common than' if a > b else 'less common than' if a < b else 'same frequency as'",
          finish,
        ].join('\n');
      }
      return `result = max(counts, key=lambda l: counts[l])\n${finish}`;
    case 'pairs':
      return [
        `A, B = ${py(q.a)}, ${py(q.b)}`,
        q.condition === 'both'
          ? 'ok = sorted(u for u, s in user_labels.items() if A in s and B in s)'
          : 'ok = sorted(u for u, s in user_labels.items() if A in s and B not in s)',
        "result = '\\n'.join(f'{a}, {b}' for i, a in enumerate(ok) for b in ok[i + 1:])",
        "print(len(ok), 'users qualify')",
        finish,
      ].join('\n');
    case 'code':
      return [
        `CHOICES = ${py(q.choices)}`,
        "result = next((k for k, v in CHOICES.items() if v in found), 'NONE')",
        finish,
      ].join('\n');
  }
}
