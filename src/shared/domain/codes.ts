/**
 * Access and emergency codes: four groups of four characters from A–Z and 2–9,
 * e.g. 'K7QM-2XPA-93HT-WQ4N'. Codes are typed without regard to case, spaces or hyphens, so a
 * code read aloud or copied by hand still works.
 */
export const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789';
export const EMERGENCY_CODE_LENGTH = 16;
/** Emailed one-time codes (password reset, moving to a new device): two groups of four. */
export const ONE_TIME_CODE_LENGTH = 8;

/**
 * The alphabet has no 0 or 1, so a typed zero or one can only mean the letter O or I: reading a
 * code aloud or off paper, people mix them up.
 */
export function normalizeCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/0/g, 'O').replace(/1/g, 'I');
}

export function formatCode(raw: string): string {
  return (
    normalizeCode(raw)
      .match(/.{1,4}/g)
      ?.join('-') ?? ''
  );
}

export function isWellFormedCode(input: string, length: number): boolean {
  const code = normalizeCode(input);
  return code.length === length && [...code].every((char) => CODE_ALPHABET.includes(char));
}
