import {
  EMERGENCY_CODE_LENGTH,
  isWellFormedCode,
  normalizeCode,
} from '../../../shared/domain/codes';
import type { TAccessCodeForm } from '../../../shared/domain/enums';
import { ENCRYPTION_MESSAGES } from '../../../shared/schemas/encryption';
import { AppError } from '../../errors';
import { verifyAgainstDummy, verifySecret } from '../../lib/crypto';
import type { UserRow } from '../users/users.repository';

/**
 * What someone gave for an access or emergency code: the code as typed (a code the server made),
 * or its proof (a sealed card's code, split in the browser; the code itself never arrives). Each
 * is checked only against hashes of its own form: a typed code never opens a sealed card's row,
 * and a proof never opens a row whose hash is of a typed code.
 */
export type TCodeGiven = { form: 'code'; code: string } | { form: 'proof'; proof: string };

/** From a request body's `emergencyCode`/`password` and `codeProof` (the schema allows one). */
export function codeGiven(input: { code?: string | undefined; proof?: string | undefined }) {
  return input.proof
    ? ({ form: 'proof', proof: input.proof } as const)
    : ({ form: 'code', code: input.code ?? '' } as const);
}

type CodeRow = Pick<UserRow, 'emergencyAccessCodeHash' | 'accessCodeForm'>;

/** The row's stored hash, when it is of the form given (else nothing to check it against). */
function hashToCheck(row: CodeRow, form: TAccessCodeForm): string | null {
  return row.accessCodeForm === form ? row.emergencyAccessCodeHash : null;
}

export interface CodeMatch<T> {
  match: T | undefined;
  /** How many stored hashes were checked: a guess against none costs nothing. */
  checked: number;
  /** A proof matched nothing, but some row holds a code the server made: ask for the typed code. */
  needsCode: boolean;
}

/**
 * The first candidate whose stored code the given code or proof matches. At least one hash check
 * runs on every path, so the time taken does not tell whether the email is known.
 */
export async function findCodeMatch<T>(
  candidates: readonly T[],
  rowOf: (candidate: T) => CodeRow,
  given: TCodeGiven,
): Promise<CodeMatch<T>> {
  const secret =
    given.form === 'proof'
      ? given.proof
      : isWellFormedCode(given.code, EMERGENCY_CODE_LENGTH)
        ? normalizeCode(given.code)
        : null;
  let checked = 0;
  if (secret !== null) {
    for (const candidate of candidates) {
      const hash = hashToCheck(rowOf(candidate), given.form);
      if (!hash) continue;
      checked += 1;
      if (await verifySecret(hash, secret)) return { match: candidate, checked, needsCode: false };
    }
  }
  if (checked === 0) await verifyAgainstDummy(secret ?? 'not a code');
  const needsCode =
    given.form === 'proof' && candidates.some((candidate) => hashToCheck(rowOf(candidate), 'code'));
  return { match: undefined, checked, needsCode };
}

/** The answer when a proof matched nothing but a typed code may: the browser sends it next. */
export const codeNeeded = () => new AppError('CODE_NEEDED', ENCRYPTION_MESSAGES.codeNeeded);

/**
 * Whether this person's code came on a care home's letter and was never used: it works only to
 * join (sign in) until its date, and nothing else until then.
 */
export function isUnusedLetterCode(row: Pick<UserRow, 'accessCodeExpiresAt'>): boolean {
  return row.accessCodeExpiresAt !== null;
}

/** Whether a letter's code ran out unused. */
export function isLetterCodeExpired(row: Pick<UserRow, 'accessCodeExpiresAt'>, now: Date): boolean {
  return row.accessCodeExpiresAt !== null && row.accessCodeExpiresAt.getTime() <= now.getTime();
}
