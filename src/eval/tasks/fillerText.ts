// Essay-like filler for the needle task: sentences built from word lists, containing no digits,
// so a planted number is the only one in the haystack.
import type { SeededRandom } from './seededRandom';

const SUBJECTS = [
  'The old harbour', 'A quiet village', 'The committee', 'Every traveller', 'The river valley', 'Our neighbour',
  'The library', 'A young painter', 'The orchestra', 'The mountain pass', 'The market square', 'A curious child',
  'The garden', 'The lighthouse keeper', 'The northern forest', 'A retired teacher', 'The bakery', 'The museum',
];
const VERBS = [
  'remembers', 'describes', 'welcomes', 'ignores', 'celebrates', 'questions', 'follows', 'gathers', 'explains',
  'imagines', 'protects', 'collects', 'visits', 'admires', 'measures', 'repairs', 'studies', 'paints',
];
const OBJECTS = [
  'the changing seasons', 'a forgotten song', 'the morning light', 'an unfinished letter', 'the long winter',
  'a narrow bridge', 'the evening tide', 'a crowded festival', 'the distant hills', 'a patient craft',
  'the first snowfall', 'an honest answer', 'the summer storms', 'a borrowed book', 'the quiet streets',
];
const CLAUSES = [
  'while the wind moves across the fields', 'because nothing stays the same for long', 'as the bells ring in the distance',
  'before anyone else has woken', 'after the rain has finally passed', 'without saying very much at all',
  'although few people ever notice', 'whenever the days grow shorter', 'as if it were the most natural thing',
  'long after the lamps are lit', 'with a care that is rare these days', 'until the light fades over the water',
];

function sentence(rng: SeededRandom): string {
  return `${rng.pick(SUBJECTS)} ${rng.pick(VERBS)} ${rng.pick(OBJECTS)} ${rng.pick(CLAUSES)}.`;
}

/** Filler of exactly `chars` characters (paragraphs of sentences, cut at the end). */
export function fillerText(rng: SeededRandom, chars: number): string {
  // A pool of sentences reused at random keeps 40 MB generation fast while the text still varies.
  const pool = Array.from({ length: 512 }, () => sentence(rng));
  const parts: string[] = [];
  let size = 0;
  let inParagraph = 0;
  while (size < chars) {
    const s = pool[Math.floor(rng.next() * pool.length)]!;
    const sep = inParagraph >= 6 ? '\n\n' : ' ';
    inParagraph = sep === ' ' ? inParagraph + 1 : 0;
    parts.push(s, sep);
    size += s.length + sep.length;
  }
  return parts.join('').slice(0, chars);
}
