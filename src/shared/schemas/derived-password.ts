import { z } from 'zod';
import { ZKdfParams } from './encryption';

/**
 * Passwords split in the browser (accounts with enhanced encryption on): what is sent in place of
 * the password is its sign-in half, `splitSecret('password', password, kdf).signInHalf`, with
 * the settings from POST /api/auth/prelogin. The server keeps a hash of it, as of a password.
 */

export const PASSWORD_PROOF_MESSAGE = 'This password could not be read. Please type it again.';

/** 32 bytes, base64url: the same shape as a code's proof. */
export const ZPasswordProof = z
  .string({ error: PASSWORD_PROOF_MESSAGE })
  .regex(/^[A-Za-z0-9_-]{43}$/, PASSWORD_PROOF_MESSAGE);

/**
 * POST /api/auth/prelogin: the settings to derive a password with, for a name as typed, or for
 * the account this device is tied to (resetting a device asks only for the password).
 */
export const ZPreloginBody = z.union(
  [
    z.object({
      username: z.string({ error: 'Username is required' }).trim().toLowerCase().min(1).max(254),
    }),
    z.object({ boundToThisDevice: z.literal(true) }),
  ],
  { error: 'Username is required' },
);
export type TPreloginBody = z.input<typeof ZPreloginBody>;
/**
 * Every name gets settings of this shape: a name without an account, or with a plain password, too.
 * `passwordIsPlain`: the account keeps its password plain (no enhanced encryption), so the browser
 * sends it as typed rather than spend a second on a proof the account would only refuse (what its
 * `PASSWORD_NEEDED` answer tells anyway). A name without an account answers as one with a split
 * password.
 */
export type TPreloginResponse = { kdf: z.output<typeof ZKdfParams>; passwordIsPlain: boolean };

/** A password given to be checked: as typed (an account that keeps it plain) or its proof. */
export type TPasswordGiven = { form: 'plain'; password: string } | { form: 'proof'; proof: string };

/** A new password: as typed (no enhanced encryption) or its proof and the settings it was made with. */
export type TNewPasswordGiven =
  | { form: 'plain'; password: string }
  | { form: 'proof'; proof: string; kdf: z.output<typeof ZKdfParams> };

/** The fields a body carries a new password's proof in. */
export const ZNewPasswordProofFields = {
  newPasswordProof: ZPasswordProof.optional(),
  newPasswordKdf: ZKdfParams.optional(),
};

/**
 * A body carries a password as typed in `field` or as `proofField`, one of the two; for a new
 * password the proof comes with its settings.
 */
export function oneFormOfPassword(field: string, proofField: string, kdfField?: string) {
  return (body: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const hasPlain = body[field] !== undefined;
    const hasProof = body[proofField] !== undefined;
    if (hasPlain && hasProof) {
      ctx.addIssue({ code: 'custom', path: [proofField], message: ONE_FORM_MESSAGE });
    } else if (!hasPlain && !hasProof) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'Password is required' });
    } else if (hasProof && kdfField && body[kdfField] === undefined) {
      ctx.addIssue({ code: 'custom', path: [kdfField], message: PASSWORD_PROOF_MESSAGE });
    }
  };
}
export const ONE_FORM_MESSAGE = 'Please send the password or its proof, not both.';
