import type { TPrompt } from '../../../shared/schemas/recipients';

type PromptSeed = Omit<TPrompt, 'id' | 'category'>;

/**
 * Gentle starting points for a message, by who it is for. Written to be read aloud to someone
 * who may be tired or emotional: short titles, one open question each, nothing that presumes a
 * family's circumstances. Ids are stable so a saved video can keep its prompt.
 */
const NEXT_OF_KIN: PromptSeed[] = [
  {
    title: 'Why I chose you',
    description: 'Tell them why you trust them to look after things when you cannot.',
  },
  {
    title: 'What I want you to know',
    description: 'The things you would want them to hear from you, in your own words.',
  },
  {
    title: 'My wishes',
    description:
      'Anything about your care, your funeral or your belongings you would like them to know.',
  },
  {
    title: 'Where things are',
    description: 'Important papers, keepsakes, or who to call: whatever would help them.',
  },
  {
    title: 'Thank you',
    description: 'Thank them for something they have done for you, big or small.',
  },
  {
    title: 'Looking after each other',
    description: 'What you hope the family will do for one another.',
  },
  { title: 'A memory of us', description: 'A moment with them that you treasure.' },
  {
    title: 'When you miss me',
    description: 'What you would like them to do or remember on the hard days.',
  },
  { title: 'Proud of you', description: 'Something about them that makes you proud.' },
  {
    title: 'Things to pass on',
    description: 'A recipe, a saying, a skill or a story you want kept in the family.',
  },
  {
    title: 'Forgiveness',
    description: 'Anything you would like to say sorry for, or to let go of.',
  },
  { title: 'My blessing', description: 'Your hopes for their life after you.' },
];

const FAMILY: PromptSeed[] = [
  {
    title: 'The day you were born',
    description: 'What you remember about the day they came into your life.',
  },
  { title: 'A favourite memory', description: 'A time together that still makes you smile.' },
  {
    title: 'Our family story',
    description: 'Where the family came from, and a story about those who came before.',
  },
  {
    title: 'What I learned in life',
    description: 'A lesson you learned, perhaps the hard way, that you want them to have.',
  },
  { title: 'When I was your age', description: 'What your life was like at their age.' },
  {
    title: 'Love and marriage',
    description: 'How you met someone you loved, and what love has taught you.',
  },
  {
    title: 'Family traditions',
    description: 'A tradition you hope they will keep, and why it matters.',
  },
  { title: 'What makes you special', description: 'The qualities you see in them.' },
  { title: 'Hopes for your future', description: 'What you wish for them in the years ahead.' },
  {
    title: 'A song or a place',
    description: 'A song, a place or a smell that reminds you of them.',
  },
  { title: 'Funny moments', description: 'Something that made the whole family laugh.' },
  { title: 'I love you because', description: 'Tell them, simply, why you love them.' },
];

const FRIEND: PromptSeed[] = [
  { title: 'How we met', description: 'The story of how your friendship began.' },
  { title: 'Our adventures', description: 'A trip, an outing or a mischief you shared.' },
  { title: 'What your friendship means', description: 'How they have made your life better.' },
  {
    title: 'Something I never told you',
    description: 'A kind word or a thank you you have been saving.',
  },
  { title: 'Remember when', description: 'A moment only the two of you would understand.' },
  { title: 'Through thick and thin', description: 'A time they stood by you, or you by them.' },
  { title: 'Laughing together', description: 'The thing that always made you both laugh.' },
  { title: 'Advice for the road', description: 'A piece of advice you would like them to keep.' },
  { title: 'Our favourite things', description: 'Books, films, songs or places you both loved.' },
  { title: 'Keep in touch', description: 'Who you hope they will stay close to, and why.' },
  {
    title: 'A toast to you',
    description: 'Raise a glass: what would you say about them at a party?',
  },
  { title: 'Goodbye for now', description: 'How you would like them to remember you.' },
];

const withIds = (category: TPrompt['category'], seeds: PromptSeed[]): TPrompt[] =>
  seeds.map((seed, index) => ({
    id: `${category}-${String(index + 1).padStart(2, '0')}`,
    category,
    ...seed,
  }));

export const PROMPT_CATALOGUE: Record<TPrompt['category'], TPrompt[]> = {
  next_of_kin: withIds('next_of_kin', NEXT_OF_KIN),
  family: withIds('family', FAMILY),
  friend: withIds('friend', FRIEND),
};
