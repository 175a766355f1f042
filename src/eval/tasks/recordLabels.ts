// The six hidden categories of OOLONG-style records (after the TREC coarse question classes), and the
// question templates that realise each one. The label never appears in the context: it must be inferred.
import type { SeededRandom } from './seededRandom';

export const RECORD_LABELS = [
  'numeric value',
  'location',
  'human being',
  'abbreviation',
  'entity',
  'description and abstract concept',
] as const;
export type RecordLabel = (typeof RECORD_LABELS)[number];

const PLACES = ['Lisbon', 'Osaka', 'Nairobi', 'Quito', 'Tallinn', 'Perth', 'Bergen', 'Cusco', 'Hanoi', 'Accra', 'Porto', 'Kyoto'];
const PEOPLE = ['Ada Lovelace', 'Nelson Mandela', 'Marie Curie', 'Frida Kahlo', 'Alan Turing', 'Rosalind Franklin', 'Miles Davis', 'Wangari Maathai'];
const THINGS = ['bicycle', 'violin', 'telescope', 'sailboat', 'typewriter', 'lantern', 'compass', 'teapot'];
const ACRONYMS = ['NASA', 'UNESCO', 'HTML', 'GDP', 'RADAR', 'LASER', 'SCUBA', 'NATO', 'DNA', 'FIFA'];
const CONCEPTS = ['irony', 'gravity', 'democracy', 'photosynthesis', 'inflation', 'nostalgia', 'entropy', 'metaphor'];
const EVENTS = ['the first moon landing', 'the fall of the Berlin Wall', 'the invention of the telephone', 'the opening of the Suez Canal'];

type Template = (rng: SeededRandom) => string;

const TEMPLATES: Record<RecordLabel, Template[]> = {
  'numeric value': [
    (r) => `How many people live in ${r.pick(PLACES)}?`,
    (r) => `How much does a new ${r.pick(THINGS)} cost?`,
    (r) => `How far is ${r.pick(PLACES)} from the sea?`,
    (r) => `What year did ${r.pick(EVENTS)} happen?`,
    (r) => `How old was ${r.pick(PEOPLE)} when they became famous?`,
  ],
  location: [
    (r) => `Where is the oldest market in ${r.pick(PLACES)}?`,
    (r) => `Which country is ${r.pick(PLACES)} in?`,
    (r) => `Where was ${r.pick(PEOPLE)} born?`,
    (r) => `Which city hosted ${r.pick(EVENTS)}?`,
  ],
  'human being': [
    (r) => `Who invented the ${r.pick(THINGS)}?`,
    (r) => `Who was the mayor of ${r.pick(PLACES)} in the last century?`,
    (r) => `Who taught ${r.pick(PEOPLE)} as a child?`,
    (r) => `Which person first described ${r.pick(CONCEPTS)}?`,
  ],
  abbreviation: [
    (r) => `What does ${r.pick(ACRONYMS)} stand for?`,
    (r) => `What is the abbreviation for the ${r.pick(THINGS)} club of ${r.pick(PLACES)}?`,
    (r) => `What is ${r.pick(ACRONYMS)} short for?`,
  ],
  entity: [
    (r) => `What animal is the symbol of ${r.pick(PLACES)}?`,
    (r) => `What colour is the flag of ${r.pick(PLACES)}?`,
    (r) => `Which instrument did ${r.pick(PEOPLE)} play?`,
    (r) => `What food is ${r.pick(PLACES)} known for?`,
  ],
  'description and abstract concept': [
    (r) => `Why does ${r.pick(CONCEPTS)} matter?`,
    (r) => `How does a ${r.pick(THINGS)} work?`,
    (r) => `What is the meaning of ${r.pick(CONCEPTS)}?`,
    (r) => `Describe the history of ${r.pick(PLACES)}.`,
  ],
};

export function instanceText(label: RecordLabel, rng: SeededRandom): string {
  return rng.pick(TEMPLATES[label])(rng);
}
