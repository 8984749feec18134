import { randomInt } from 'node:crypto';
import { CODE_ALPHABET, formatCode } from '../../shared/domain/codes';

/** A code from the SPEC §5 alphabet, drawn with a CSPRNG, formatted in groups of four. */
export function generateCode(length: number): string {
  let raw = '';
  for (let i = 0; i < length; i += 1) raw += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return formatCode(raw);
}
