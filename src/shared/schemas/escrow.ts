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
  /** 403 to the owner's account: no legacy release, and no key recovery asked for yet. */
  recoveryNotStarted:
    'Your next of kin’s card opens your messages only after a waiting period, so that nobody can take them from you quietly. You can start the wait now.',
  /** 403: a key recovery is asked for by the next of kin's own account, not the owner's. */
  recoveryOwnerOnly:
    'Only the account’s owner can ask for this, signed in to their own account on their device.',
  /** 404: cancelling when nothing waits, or a link already used. */
  noRecoveryWaiting: 'There is no key recovery waiting: nothing was changed.',
} as const;

/** The wait has not ended: said with the day it ends, in the owner's own time zone. */
export const recoveryOpensOn = (day: string) =>
  `Your next of kin’s card opens your messages on ${day}, unless the recovery is stopped before then.`;

/** POST /api/escrow/open: the next of kin's email and their emergency code's proof. */
export const ZEscrowOpenBody = z.object({
  nextOfKinEmail: ZEmail,
  codeProof: ZCodeProof,
});
export type TEscrowOpenBody = z.input<typeof ZEscrowOpenBody>;

/** The account key under the emergency code's key half, and what its label names. */
export type TEscrowOpened = { ownerId: number; keyId: string; escrowWrap: string };

/**
 * A key recovery the owner's account asked for: waiting until `opensAt`, or open since. Answered by
 * GET and POST /api/escrow/recovery, with the owner's waiting period in days.
 */
export type TKeyRecovery = { status: 'waiting' | 'open'; opensAt: string };
export type TKeyRecoveryState = { recovery: TKeyRecovery | null; waitingDays: number };

/** POST /api/escrow/recovery/cancel-link: the token from the owner's email. */
export const ZRecoveryCancelLinkBody = z.object({
  token: z.string({ error: ESCROW_MESSAGES.noRecoveryWaiting }).trim().min(1).max(200),
});
