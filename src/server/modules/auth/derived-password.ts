import { pbkdf2, hkdf } from 'node:crypto';
import { promisify } from 'node:util';
import { MESSAGES } from '../../../shared/domain/errors';
import type {
  TNewPasswordGiven,
  TPasswordGiven,
  TPreloginResponse,
} from '../../../shared/schemas/derived-password';
import { KDF_ITERATIONS, type TKdfParams } from '../../../shared/sealing';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { hashSecret, verifyAgainstDummy, verifySecret } from '../../lib/crypto';
import { hasAccountKeys } from '../encryption/encryption.repository';
import type { DbOrTx } from '../../db/client';

/**
 * Passwords of accounts with enhanced encryption on are split in the browser (PBKDF2, then
 * HKDF): only the sign-in half arrives, and the hash kept is of it. `users.password_kdf` says
 * which accounts these are; every other account keeps its plain password as before.
 */

/** What a stored password is: its hash and, when split in the browser, the settings. */
export type TStoredPassword = { passwordHash: string | null; passwordKdf: TKdfParams | null };

/** The settings a browser derives a password with before signing in. */
const SALT_CHARS = 22;

/**
 * POST /api/auth/prelogin's answer: the account's settings; for any other name (unknown, or a
 * plain password) settings of the same shape from a keyed hash of the name, the same on every
 * ask, so the settings tell nothing about the name. `passwordIsPlain` tells only what a proof's
 * PASSWORD_NEEDED would.
 */
export function preloginAnswer(
  deps: Pick<AppDeps, 'urlSigner'>,
  identifier: string,
  stored: TStoredPassword | undefined,
): TPreloginResponse {
  const passwordIsPlain = keepsPasswordPlain(stored);
  if (stored?.passwordKdf) return { kdf: stored.passwordKdf, passwordIsPlain };
  const kdf: TKdfParams = {
    algorithm: 'PBKDF2-SHA-256',
    iterations: KDF_ITERATIONS.password,
    salt: deps.urlSigner
      .sign(['memento/v1/prelogin-salt', identifier.trim().toLowerCase()])
      .slice(0, SALT_CHARS),
  };
  return { kdf, passwordIsPlain };
}

/** Whether the account keeps its password plain: it answers a proof PASSWORD_NEEDED. */
function keepsPasswordPlain(stored: TStoredPassword | undefined): boolean {
  return Boolean(stored?.passwordHash) && !stored?.passwordKdf;
}

/** The answer to a proof sent for an account whose password the server keeps plain. */
export const passwordNeeded = () => new AppError('PASSWORD_NEEDED', MESSAGES.passwordNeeded);

/**
 * Whether the password given is the account's. A proof for an account with a plain password
 * answers 401 PASSWORD_NEEDED (nothing was checked, so nothing is counted); a plain password for
 * an account whose password is split is wrong without a look, so the browser never has a reason
 * to send one. An unknown account answers a proof as a split account answers a wrong one.
 */
export async function isPasswordRight(
  stored: TStoredPassword | undefined,
  given: TPasswordGiven,
): Promise<boolean> {
  const secret = given.form === 'proof' ? given.proof : given.password;
  if (!stored?.passwordHash) return verifyAgainstDummy(secret);
  const isPlain = keepsPasswordPlain(stored);
  if (given.form === 'proof' && isPlain) throw passwordNeeded();
  if (given.form === 'plain' && !isPlain) return verifyAgainstDummy(secret);
  return verifySecret(stored.passwordHash, secret);
}

/** From a body's `password`/`passwordProof` (the schemas allow one). */
export function passwordGiven(body: {
  password?: string | undefined;
  passwordProof?: string | undefined;
}): TPasswordGiven {
  return body.passwordProof
    ? { form: 'proof', proof: body.passwordProof }
    : { form: 'plain', password: body.password ?? '' };
}

/** From a body's `newPassword` or `newPasswordProof` + `newPasswordKdf`. */
export function newPasswordGiven(body: {
  newPassword?: string | undefined;
  newPasswordProof?: string | undefined;
  newPasswordKdf?: TKdfParams | undefined;
}): TNewPasswordGiven {
  return body.newPasswordProof && body.newPasswordKdf
    ? { form: 'proof', proof: body.newPasswordProof, kdf: body.newPasswordKdf }
    : { form: 'plain', password: body.newPassword ?? '' };
}

/**
 * The columns a new password is stored in. With enhanced encryption on it must come split (a
 * plain one is refused before it is kept anywhere); without, plain, as always: a proof answers
 * PASSWORD_NEEDED and the browser sends the password itself.
 */
export async function newPasswordColumns(
  db: DbOrTx,
  userId: number,
  given: TNewPasswordGiven,
): Promise<TStoredPassword & { passwordHash: string }> {
  const isOn = await hasAccountKeys(db, userId);
  if (given.form === 'proof') {
    if (!isOn) throw passwordNeeded();
    return { passwordHash: await hashSecret(given.proof), passwordKdf: given.kdf };
  }
  if (isOn) {
    throw new AppError('VALIDATION', MESSAGES.passwordMustBeSplit, {
      newPassword: MESSAGES.passwordMustBeSplit,
    });
  }
  return { passwordHash: await hashSecret(given.password), passwordKdf: null };
}

const pbkdf2Async = promisify(pbkdf2);
const hkdfAsync = promisify(hkdf);

/**
 * The sign-in half the browser derives from a password (`splitSecret` in shared/sealing), worked
 * out here only when turning encryption on: the one moment the plain password still arrives, to
 * be checked against the old hash. A proof that does not match is refused, so a faulty browser
 * cannot lock the owner out.
 */
export async function signInHalfOf(password: string, kdf: TKdfParams): Promise<string> {
  const master = await pbkdf2Async(
    password.normalize('NFC'),
    Buffer.from(kdf.salt, 'base64url'),
    kdf.iterations,
    32,
    'sha256',
  );
  const half = await hkdfAsync(
    'sha256',
    master,
    new Uint8Array(0),
    'memento/v1/password/sign-in',
    32,
  );
  return Buffer.from(half).toString('base64url');
}
