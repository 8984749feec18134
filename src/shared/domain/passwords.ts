/**
 * One password policy wherever a password is set, with the stricter minimum. Any character that
 * is not a letter or a digit counts as special, so a space, '-' or '£' satisfies the rule.
 */
export const PASSWORD_MIN_LENGTH = 12;

export const PASSWORD_MESSAGES = {
  tooShort: 'Password must be at least 12 characters',
  uppercase: 'Password must contain at least one uppercase letter',
  lowercase: 'Password must contain at least one lowercase letter',
  number: 'Password must contain at least one number',
  special: 'Password must contain at least one special character',
  tooCommon: 'This password is too common. Please choose another.',
  mismatch: 'Passwords do not match',
} as const;

export interface PasswordRequirement {
  id: 'length' | 'uppercase' | 'lowercase' | 'number' | 'special';
  /** Checklist wording shown beside the password field. */
  label: string;
  message: string;
  isMet: (password: string) => boolean;
}

export const PASSWORD_REQUIREMENTS: readonly PasswordRequirement[] = [
  {
    id: 'length',
    label: 'At least 12 characters',
    message: PASSWORD_MESSAGES.tooShort,
    isMet: (p) => [...p].length >= PASSWORD_MIN_LENGTH,
  },
  {
    id: 'uppercase',
    label: 'One uppercase letter (A–Z)',
    message: PASSWORD_MESSAGES.uppercase,
    isMet: (p) => /\p{Lu}/u.test(p),
  },
  {
    id: 'lowercase',
    label: 'One lowercase letter (a–z)',
    message: PASSWORD_MESSAGES.lowercase,
    isMet: (p) => /\p{Ll}/u.test(p),
  },
  {
    id: 'number',
    label: 'One number (0–9)',
    message: PASSWORD_MESSAGES.number,
    isMet: (p) => /\p{Nd}/u.test(p),
  },
  {
    id: 'special',
    label: 'One symbol or space (for example ! - £ or a space)',
    message: PASSWORD_MESSAGES.special,
    isMet: (p) => /[^\p{L}\p{Nd}]/u.test(p),
  },
];

/**
 * The most common passwords that still pass the character rules. Lower-cased; compared after
 * lower-casing. A short list on purpose: it ships to the browser too.
 */
const COMMON_PASSWORDS = new Set([
  'password123!',
  'password1234!',
  'password123$',
  'password@123',
  'p@ssw0rd1234',
  'p@ssword1234',
  'passw0rd123!',
  'welcome123!!',
  'welcome@1234',
  'qwerty123456!',
  'qwerty@12345',
  'letmein12345!',
  'iloveyou123!',
  'admin@123456',
  'administrator1!',
  'changeme123!',
  'abcdef123456!',
  'abc123456789!',
  '1234567890aa!',
  'summer2024!!',
  'winter2024!!',
  'spring2025!!',
  'autumn2025!!',
  'football123!',
  'sunshine123!',
  'princess123!',
  'monkey123456!',
  'dragon123456!',
  'trustno1234!',
  'memento12345!',
]);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** The first unmet rule's message, or null when the password is acceptable. */
export function findPasswordProblem(password: string): string | null {
  const unmet = PASSWORD_REQUIREMENTS.find((rule) => !rule.isMet(password));
  if (unmet) return unmet.message;
  if (isCommonPassword(password)) return PASSWORD_MESSAGES.tooCommon;
  return null;
}
