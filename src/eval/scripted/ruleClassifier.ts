// The scripted sub-model's way of inferring a record's hidden label: keyword rules over the question
// text, the way a person would tell a "who" question from a "where" question. It is written apart from
// the generator's templates on purpose; a unit test checks the two agree. The same rules exist as
// Python source for the no-sub-call mode, where the scripted root must classify with code alone.
import { RECORD_LABELS } from '../tasks/recordLabels';

/** The label names are public (the task's preamble lists them), so they are shared, not re-typed. */
export const SCRIPTED_LABELS = RECORD_LABELS;

const RULES: Array<[RegExp, (typeof SCRIPTED_LABELS)[number]]> = [
  [/\b(stand for|short for|abbreviation)\b/i, 'abbreviation'],
  [/^(how many|how much|how far|how old|what year)\b/i, 'numeric value'],
  [/^(where|which country|which city)\b/i, 'location'],
  [/^(who|which person)\b/i, 'human being'],
  [/^(what animal|what colou?r|which instrument|what food)\b/i, 'entity'],
  [/^(why|how does|what is the meaning|describe)\b/i, 'description and abstract concept'],
];

export function classifyInstance(instance: string): string | undefined {
  const text = instance.trim();
  for (const [pattern, label] of RULES) if (pattern.test(text)) return label;
  return undefined;
}

/** Parses `Date: ... || User: <id> || Instance: <text>`; undefined for other lines. */
export function parseRecordLine(line: string): { user: number; instance: string } | undefined {
  const m = /\|\|\s*User:\s*(\d+)\s*\|\|\s*Instance:\s*(.*)$/.exec(line);
  return m ? { user: Number(m[1]), instance: m[2]! } : undefined;
}

/** The same rules in Python, for cells the scripted root writes when sub-calls are disabled. */
export const PYTHON_CLASSIFIER = `
import re
_RULES = [
    (re.compile(r"\\b(stand for|short for|abbreviation)\\b", re.I), "abbreviation"),
    (re.compile(r"^(how many|how much|how far|how old|what year)\\b", re.I), "numeric value"),
    (re.compile(r"^(where|which country|which city)\\b", re.I), "location"),
    (re.compile(r"^(who|which person)\\b", re.I), "human being"),
    (re.compile(r"^(what animal|what colou?r|which instrument|what food)\\b", re.I), "entity"),
    (re.compile(r"^(why|how does|what is the meaning|describe)\\b", re.I), "description and abstract concept"),
]
_RECORD = re.compile(r"\\|\\|\\s*User:\\s*(\\d+)\\s*\\|\\|\\s*Instance:\\s*(.*)$")
def classify(instance):
    text = instance.strip()
    for pattern, label in _RULES:
        if pattern.search(text):
            return label
    return None
def records(text):
    out = []
    for line in text.splitlines():
        m = _RECORD.search(line)
        if m:
            out.append((int(m.group(1)), classify(m.group(2))))
    return out
`;
