import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** OWASP argon2id parameters; argon2id is the library's default algorithm. */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, ARGON2_OPTIONS);
}

export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  try {
    return await verify(hashed, secret);
  } catch {
    return false;
  }
}

/**
 * A hash of a random value, checked when the account does not exist so that a wrong username
 * costs the same time as a wrong password.
 */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(secret: string): Promise<false> {
  dummyHash ??= hashSecret(randomToken());
  await verifySecret(await dummyHash, secret);
  return false;
}

/** 256 random bits, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** For high-entropy values (session tokens, fingerprints) a fast hash is enough. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
