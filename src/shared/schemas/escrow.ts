import { z } from 'zod';
import { ZEmail } from './common';
import { ZCodeProof } from './encryption';

/**
 * The next of kin's way back into a sealed account: the owner's account key, wrapped in the
 * owner's browser under the key half of the next of kin's emergency code, is kept by the server
 * and handed over only once the owner's legacy is released. It opens only with the code, which
 * the server never sees.
 */

export const ESCROW_MESSAGES = {
  /** 400: a card for anyone else carrying the account key. */
  nextOfKinCardOnly: 'Only your next of kin’s card carries a key to your account.',
  /** 403: asked before the legacy release, or after the owner cancelled or ended it. */
  notReleased:
    'The emergency card opens these messages only after a legacy release: ask for the release from your Memento home, and it opens once the waiting period ends without being cancelled.',
  /** 409: a code the server made, or a card made before it carried the key. */
  noEscrow:
    'This emergency card cannot open these messages: it was made before it could. Only the account’s owner can make a new card, on the Recipients page.',
  ownEmail: 'Please enter your own email address.',
} as const;

/** POST /api/escrow/open: the next of kin's email and their emergency code's proof. */
export const ZEscrowOpenBody = z.object({
  nextOfKinEmail: ZEmail,
  codeProof: ZCodeProof,
});
export type TEscrowOpenBody = z.input<typeof ZEscrowOpenBody>;

/** The account key under the emergency code's key half, and what its label names. */
export type TEscrowOpened = { ownerId: number; keyId: string; escrowWrap: string };
