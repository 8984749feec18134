import { pbkdf2, hkdf } from 'node:crypto';
import { promisify } from 'node:util';
import { MESSAGES } from '../../../shared/domain/errors';
import type { TNewPasswordGiven, TPasswordGiven } from '../../../shared/schemas/derived-password';
import { KDF_ITERATIONS, type TKdfParams } from '../../../shared/sealing';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { hashSecret, verifyAgainstDummy, verifySecret } from '../../lib/crypto';
import { hasAccountKeys } from '../encryption/encryption.repository';
import type { DbOrTx } from '../../db/client';
import { updateUser } from '../users/users.repository';

/**
 * Passwords of accounts with enhanced encryption on are split in the browser (PBKDF2, then
 * HKDF): only the sign-in half arrives, and the hash kept is of it. Every other password is kept
 * split too, split here with the settings the prelogin answers for its name, so a browser's proof
 * works for every account and no answer tells which accounts have encryption on.
 * `users.password_kdf` null marks a password kept plain by an earlier version, until its next
 * sign-in.
 */

/** What a stored password is: its hash and, when split in the browser, the settings. */
export type TStoredPassword = { passwordHash: string | null; passwordKdf: TKdfParams | null };

/** The settings a browser derives a password with before signing in. */
const SALT_CHARS = 22;

/**
 * POST /api/auth/prelogin: the account's settings; for any other name (unknown, or a plain
 * password) settings of the same shape from a keyed hash of the name, the same on every ask, so
 * the answer tells nothing about the name.
 */
export function preloginKdf(
  deps: Pick<AppDeps, 'urlSigner'>,
  identifier: string,
  stored: TStoredPassword | undefined,
): TKdfParams {
  if (stored?.passwordKdf) return stored.passwordKdf;
  return {
    algorithm: 'PBKDF2-SHA-256',
    iterations: KDF_ITERATIONS.password,
    salt: deps.urlSigner
      .sign(['memento/v1/prelogin-salt', identifier.trim().toLowerCase()])
      .slice(0, SALT_CHARS),
  };
}

/** The answer to a proof sent for an account whose password an earlier version kept plain. */
export const passwordNeeded = () => new AppError('PASSWORD_NEEDED', MESSAGES.passwordNeeded);

/**
 * Whether the password given is the account's. A proof for an account with a plain password
 * answers 401 PASSWORD_NEEDED (nothing was checked, so nothing is counted). A plain password for
 * an account with enhanced encryption on is wrong without a look, so the browser never has a
 * reason to send one; for any other split account it is split here and checked (an API client).
 * An unknown account answers a proof as a split account answers a wrong one.
 */
export async function isPasswordRight(
  db: DbOrTx,
  stored: (TStoredPassword & { id: number }) | undefined,
  given: TPasswordGiven,
): Promise<boolean> {
  const secret = given.form === 'proof' ? given.proof : given.password;
  if (!stored?.passwordHash) return verifyAgainstDummy(secret);
  if (given.form === 'proof') {
    if (!stored.passwordKdf) throw passwordNeeded();
    return verifySecret(stored.passwordHash, given.proof);
  }
  if (!stored.passwordKdf) return verifySecret(stored.passwordHash, given.password);
  if (await hasAccountKeys(db, stored.id)) return verifyAgainstDummy(given.password);
  return verifySecret(stored.passwordHash, await signInHalfOf(given.password, stored.passwordKdf));
}

/** What keeping a password split here needs: the key of the prelogin's salts. */
export type TPasswordDeps = Pick<AppDeps, 'urlSigner'>;

/**
 * The columns a password given as typed is kept in: split here with the settings the prelogin
 * answers for the name (so that answer never changes when the name is taken).
 */
export async function plainPasswordColumns(
  deps: TPasswordDeps,
  username: string,
  password: string,
): Promise<TStoredPassword & { passwordHash: string }> {
  const kdf = preloginKdf(deps, username, undefined);
  return { passwordHash: await hashSecret(await signInHalfOf(password, kdf)), passwordKdf: kdf };
}

/**
 * After a sign-in with a password an earlier version kept plain: kept split from now on, so the
 * account answers a proof as every other does.
 */
export async function splitAfterSignIn(
  deps: TPasswordDeps & { db: DbOrTx },
  user: TStoredPassword & { id: number; username: string },
  given: TPasswordGiven,
  now: Date,
): Promise<void> {
  if (given.form !== 'plain' || user.passwordKdf) return;
  const columns = await plainPasswordColumns(deps, user.username, given.password);
  await updateUser(deps.db, user.id, columns, now);
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
 * plain one is refused before it is kept anywhere); without, as typed: a proof answers
 * PASSWORD_NEEDED, the browser sends the password itself, and it is kept as
 * `plainPasswordColumns` keeps it.
 */
export async function newPasswordColumns(
  deps: TPasswordDeps & { db: DbOrTx },
  user: { id: number; username: string },
  given: TNewPasswordGiven,
): Promise<TStoredPassword & { passwordHash: string }> {
  const isOn = await hasAccountKeys(deps.db, user.id);
  if (given.form === 'proof') {
    if (!isOn) throw passwordNeeded();
    return { passwordHash: await hashSecret(given.proof), passwordKdf: given.kdf };
  }
  if (isOn) {
    throw new AppError('VALIDATION', MESSAGES.passwordMustBeSplit, {
      newPassword: MESSAGES.passwordMustBeSplit,
    });
  }
  return plainPasswordColumns(deps, user.username, given.password);
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
