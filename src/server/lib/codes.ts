import { randomInt } from 'node:crypto';
import { CODE_ALPHABET, formatCode } from '../../shared/domain/codes';

/** A code from the codes' alphabet (no look-alike characters), drawn with a CSPRNG, in fours. */
export function generateCode(length: number): string {
  let raw = '';
  for (let i = 0; i < length; i += 1) raw += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return formatCode(raw);
}
