import { WRAP_LABEL_PARTS, type TTurnOnEncryptionBody } from '@shared/schemas/encryption';
import {
  generateRecoveryCode,
  generateWrappingKey,
  newKdfParams,
  splitSecret,
  wrapKey,
  wrapLabel,
} from '@shared/sealing';

/** What turning enhanced encryption on makes in the browser, before anything is sent. */
export interface TNewAccountKeys {
  /** The request: the account key only wrapped, under the password and the recovery sheet. */
  body: TTurnOnEncryptionBody;
  /** Kept on this device once the server has said yes; never sent. */
  accountKey: CryptoKey;
  /** Shown once on the recovery sheet; never sent. */
  recoveryCode: string;
}

/**
 * A new account key, a recovery code, and the key's two wraps: under the password's key half and
 * under the recovery code's. Each secret is stretched with settings of its own (600,000 rounds of
 * PBKDF2: about a second each), both at once.
 */
export async function makeAccountKeys(userId: number, password: string): Promise<TNewAccountKeys> {
  const accountKey = await generateWrappingKey({ extractable: true });
  const recoveryCode = generateRecoveryCode();
  const passwordKdf = newKdfParams('password');
  const recoveryKdf = newKdfParams('recovery');
  const [byPassword, byRecovery] = await Promise.all([
    splitSecret('password', password, passwordKdf),
    splitSecret('recovery', recoveryCode, recoveryKdf),
  ]);
  const [passwordWrap, recoveryWrap] = await Promise.all([
    wrapKey(
      accountKey,
      byPassword.keyHalf,
      wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(userId)),
    ),
    wrapKey(
      accountKey,
      byRecovery.keyHalf,
      wrapLabel(...WRAP_LABEL_PARTS.accountByRecovery(userId)),
    ),
  ]);
  return {
    body: {
      password,
      // Signs in from now on, in place of the password: the same split as the key half above.
      passwordProof: byPassword.signInHalf,
      passwordWrap,
      passwordKdf,
      recoveryWrap,
      recoveryKdf,
    },
    accountKey,
    recoveryCode,
  };
}
