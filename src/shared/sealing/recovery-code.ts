import { CODE_ALPHABET, formatCode, normalizeCode } from '../domain/codes';

/**
 * The code on the printed recovery sheet: six groups of four characters from the app's code
 * alphabet, e.g. 'K7QM-2XPA-93HT-WQ4N-B6CE-PR8D'. In each group three characters are random and
 * the fourth checks them and the group's place, so any single mistyped character, or a group
 * typed in the wrong place, is caught and the person is told which group to look at again.
 * 18 random characters hold 91.6 bits; with PBKDF2 at 600,000 rounds on top, guessing one costs
 * more than 2^110 hash computations.
 */
export const RECOVERY_CODE_GROUPS = 6;
const GROUP_LENGTH = 4;
const RANDOM_PER_GROUP = 3;
export const RECOVERY_CODE_LENGTH = RECOVERY_CODE_GROUPS * GROUP_LENGTH;
const BASE = CODE_ALPHABET.length;
/** Odd and not a multiple of 17, so a change of any one character changes the sum mod 34. */
const WEIGHTS = [1, 3, 5];
/** Distinct per place modulo 34, so a group in the wrong place fails its check. */
const PLACE_STEP = 7;

export type TRecoveryCodeCheck =
  | { isValid: true; code: string }
  | { isValid: false; problem: 'length' | 'character'; groups: number[] }
  | { isValid: false; problem: 'group'; groups: number[] };

export function generateRecoveryCode(): string {
  const values: number[] = [];
  while (values.length < RECOVERY_CODE_GROUPS * RANDOM_PER_GROUP) {
    // Only bytes below a multiple of 34 are used, so every character is equally likely.
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      if (byte < BASE * Math.floor(256 / BASE)) values.push(byte % BASE);
    }
  }
  let raw = '';
  for (let group = 0; group < RECOVERY_CODE_GROUPS; group++) {
    const random = values.slice(group * RANDOM_PER_GROUP, (group + 1) * RANDOM_PER_GROUP);
    raw += [...random, checkValue(random, group)].map((value) => CODE_ALPHABET[value]).join('');
  }
  return formatCode(raw);
}

/**
 * Checks a typed recovery code; the groups listed (1-based) are the ones to look at again. A
 * well-formed code comes back formatted, ready to derive its key from.
 */
export function checkRecoveryCode(input: string): TRecoveryCodeCheck {
  const code = normalizeCode(input);
  if (code.length !== RECOVERY_CODE_LENGTH)
    return { isValid: false, problem: 'length', groups: [] };
  const values = [...code].map((char) => CODE_ALPHABET.indexOf(char));
  const groupOf = (position: number) => Math.floor(position / GROUP_LENGTH) + 1;
  const strangeGroups = values.flatMap((value, i) => (value < 0 ? [groupOf(i)] : []));
  if (strangeGroups.length > 0) {
    return { isValid: false, problem: 'character', groups: [...new Set(strangeGroups)] };
  }
  const wrongGroups: number[] = [];
  for (let group = 0; group < RECOVERY_CODE_GROUPS; group++) {
    const start = group * GROUP_LENGTH;
    const random = values.slice(start, start + RANDOM_PER_GROUP);
    if (values[start + RANDOM_PER_GROUP] !== checkValue(random, group)) wrongGroups.push(group + 1);
  }
  if (wrongGroups.length > 0) return { isValid: false, problem: 'group', groups: wrongGroups };
  return { isValid: true, code: formatCode(code) };
}

function checkValue(random: number[], group: number): number {
  const sum = random.reduce(
    (total, value, i) => total + value * (WEIGHTS[i] ?? 1),
    group * PLACE_STEP,
  );
  return sum % BASE;
}
