import { normalizeCode } from '../domain/codes';
import { fromBase64Url, randomBytes, toBase64Url, utf8 } from './bytes';
import { SealingError } from './errors';

/**
 * A password or code is split in the browser into two halves that share nothing but their origin:
 *
 *   m         = PBKDF2-HMAC-SHA-256(secret, salt, iterations)
 *   sign-in   = HKDF-SHA-256(m, info 'memento/v1/<kind>/sign-in')  → sent where the secret went
 *   key half  = HKDF-SHA-256(m, info 'memento/v1/<kind>/key')      → wraps keys, never leaves
 *
 * HKDF is one-way, so the server, which sees only the sign-in half (and keeps a hash of it),
 * cannot compute the key half; getting it means guessing the secret through PBKDF2 again.
 */
export type TSecretKind = 'password' | 'code' | 'recovery';

export type TKdfParams = {
  algorithm: 'PBKDF2-SHA-256';
  iterations: number;
  /** base64url, at least 16 bytes. */
  salt: string;
};

/**
 * Passwords are chosen by people, so they get the full cost; codes carry ≥ 81 random bits and
 * need only a little stretching; the recovery sheet opens the whole account, so it gets the full
 * cost too (it is typed once in a long while).
 */
export const KDF_ITERATIONS: Record<TSecretKind, number> = {
  password: 600_000,
  code: 100_000,
  recovery: 600_000,
};
/** A server asking for more would only freeze the tablet, so settings above this are refused. */
const MAX_ITERATIONS = 5_000_000;
const SALT_BYTES = 16;

export function newKdfParams(kind: TSecretKind): TKdfParams {
  return {
    algorithm: 'PBKDF2-SHA-256',
    iterations: KDF_ITERATIONS[kind],
    salt: toBase64Url(randomBytes(SALT_BYTES)),
  };
}

/**
 * Settings for an access or emergency code, salted by the email it was made for: a person signing
 * in with email and code needs no round trip first. A changed email therefore needs a new card.
 */
export async function codeKdfParams(email: string): Promise<TKdfParams> {
  const salt = await crypto.subtle.digest(
    'SHA-256',
    utf8(`memento/v1/code-salt\u0000${email.trim().toLowerCase()}`),
  );
  return {
    algorithm: 'PBKDF2-SHA-256',
    iterations: KDF_ITERATIONS.code,
    salt: toBase64Url(new Uint8Array(salt)),
  };
}

/** Refuses settings weaker than ours (a server downgrading them) or absurdly costly. */
export function checkKdfParams(kdf: TKdfParams, kind: TSecretKind): Uint8Array<ArrayBuffer> {
  const salt = fromBase64Url(kdf.salt);
  const isSound =
    kdf.algorithm === 'PBKDF2-SHA-256' &&
    Number.isInteger(kdf.iterations) &&
    kdf.iterations >= KDF_ITERATIONS[kind] &&
    kdf.iterations <= MAX_ITERATIONS &&
    salt !== undefined &&
    salt.length >= SALT_BYTES;
  if (!isSound || !salt) {
    throw new SealingError('kdf', 'These sign-in settings are not safe to use.');
  }
  return salt;
}

/** Passwords as typed (in one Unicode form); codes as the app reads them (case, spaces, 0/O). */
export function normalizeSecret(kind: TSecretKind, secret: string): string {
  return kind === 'password' ? secret.normalize('NFC') : normalizeCode(secret);
}

export type TSecretHalves = {
  /** base64url of 32 bytes: what the browser sends instead of the secret. */
  signInHalf: string;
  /** Wraps and unwraps keys; cannot be exported. */
  keyHalf: CryptoKey;
};

export async function splitSecret(
  kind: TSecretKind,
  secret: string,
  kdf: TKdfParams,
): Promise<TSecretHalves> {
  const salt = checkKdfParams(kdf, kind);
  const typed = await crypto.subtle.importKey(
    'raw',
    utf8(normalizeSecret(kind, secret)),
    'PBKDF2',
    false,
    ['deriveBits'],
  );
  const stretched = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: kdf.iterations },
    typed,
    256,
  );
  const master = await crypto.subtle.importKey('raw', stretched, 'HKDF', false, [
    'deriveBits',
    'deriveKey',
  ]);
  const signIn = await crypto.subtle.deriveBits(halfParams(kind, 'sign-in'), master, 256);
  const keyHalf = await crypto.subtle.deriveKey(
    halfParams(kind, 'key'),
    master,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
  return { signInHalf: toBase64Url(new Uint8Array(signIn)), keyHalf };
}

function halfParams(kind: TSecretKind, half: 'sign-in' | 'key'): HkdfParams {
  return {
    name: 'HKDF',
    hash: 'SHA-256',
    salt: new Uint8Array(),
    info: utf8(`memento/v1/${kind}/${half}`),
  };
}
