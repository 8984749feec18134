import type { TRecipientKeyForRecipient } from '@shared/schemas/encryption';
import { splitCode, openRecipientKeyWithCode } from './cards';
import { keepRecipientKey } from './device-keys';

/**
 * Signing in with an access or emergency code: the browser sends the code's proof in place of
 * the code, and afterwards opens the recipient keys the server hands back with the code's key
 * half (which never left this device) and keeps them here under the device key.
 */
export interface TCodeProof {
  codeProof: string;
  /** Opens and keeps on this device the recipient keys the sign-in answered with. */
  keepRecipientKeys: (keys: readonly TRecipientKeyForRecipient[]) => Promise<void>;
}

/** The proof of a typed code for this email; PBKDF2 makes it take a moment (0.1–0.5 s). */
export async function proveCode(email: string, code: string): Promise<TCodeProof> {
  const { signInHalf, keyHalf } = await splitCode(email, code);
  return {
    codeProof: signInHalf,
    async keepRecipientKeys(keys) {
      for (const { keyId, codeWrap } of keys) {
        try {
          await keepRecipientKey(keyId, await openRecipientKeyWithCode(codeWrap, keyId, keyHalf));
        } catch {
          // A wrap this code does not open belongs to another card: it opens nothing here.
        }
      }
    },
  };
}
