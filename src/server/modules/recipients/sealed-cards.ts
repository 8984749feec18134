import { ENCRYPTION_MESSAGES, type TSealedCard } from '../../../shared/schemas/encryption';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { hashSecret } from '../../lib/crypto';
import { deleteSessionsOfUser } from '../auth/sessions.repository';
import { hasAccountKeys } from '../encryption/encryption.repository';
import { updateUser, type SessionUser } from '../users/users.repository';
import {
  clearRecipientWraps,
  findRecipientKey,
  putRecipientKey,
} from './recipient-keys.repository';
import { brandForOwner } from '../care-homes/care-home-brand';
import { cardInvitationMail } from './sealed-cards.mails';
import { escrowWrapOf } from '../escrow/escrow-card';

/**
 * Sealed cards: with enhanced encryption on, a recipient's code and key are made in the owner's
 * browser. The server keeps a hash of the code's proof (never the code) and the key's wraps, and
 * mails an invitation without a code: the owner gives the card themselves.
 */

/**
 * The one rule for how someone is added: with a card made on the owner's device once enhanced
 * encryption is on (the server must not know the code), with a code the server makes before.
 */
export async function requireCardRule(
  db: DbOrTx,
  ownerId: number,
  card: TSealedCard | undefined,
): Promise<void> {
  const isOn = await hasAccountKeys(db, ownerId);
  if (isOn && !card) throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.cardRequired);
  if (!isOn && card) {
    throw new AppError('VALIDATION', ENCRYPTION_MESSAGES.cardNotOn, {
      sealedCard: ENCRYPTION_MESSAGES.cardNotOn,
    });
  }
}

/** Resharing makes a code on the server, which a sealed account must not know: a new card instead. */
export async function refuseServerCodeWhenSealed(db: DbOrTx, ownerId: number): Promise<void> {
  if (await hasAccountKeys(db, ownerId)) {
    throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.cardRequired);
  }
}

/**
 * Makes `card` the person's one card: the hash of its proof in place of any code before it, its
 * key's wraps in place of the old card's, and the old card's message wraps cleared (its key opens
 * nothing new); sessions signed in with an old code end. The invitation is queued in the same
 * transaction. Answers null: there is no code to show.
 */
export async function storeSealedCard(
  deps: Pick<AppDeps, 'clock' | 'config' | 'mail'>,
  tx: DbOrTx,
  input: { person: SessionUser; owner: SessionUser; card: TSealedCard; isReplacement: boolean },
): Promise<null> {
  const { person, owner, card } = input;
  const escrowWrap = escrowWrapOf(person, card);
  const now = deps.clock.now();
  const emergencyAccessCodeHash = await hashSecret(card.codeProof);
  await updateUser(
    tx,
    person.id,
    { emergencyAccessCodeHash, accessCodeForm: 'proof', accessCodeExpiresAt: null },
    now,
  );
  await putRecipientKey(tx, {
    recipientId: person.id,
    keyId: card.keyId,
    ownerWrap: card.ownerWrap,
    codeWrap: card.codeWrap,
    escrowWrap,
    now,
  });
  await clearRecipientWraps(tx, { ownerId: owner.id, recipientId: person.id });
  await deleteSessionsOfUser(tx, person.id);
  await deps.mail.enqueue(
    tx,
    cardInvitationMail({
      person,
      owner,
      appUrl: deps.config.APP_URL,
      isReplacement: input.isReplacement,
      brand: await brandForOwner(tx, owner.id, deps.config.APP_URL),
    }),
  );
  return null;
}

/**
 * What a sealed upload keeps for its recipient: the content key wrapped for their current card,
 * named by the card's id (a card replaced before the upload completes opens nothing, so that wrap
 * is then dropped). A wrap for a recipient who has no card is refused.
 */
export async function recipientWrapForUpload(
  db: DbOrTx,
  recipientId: number,
  recipientKeyWrap: string | undefined,
): Promise<{ recipientKeyWrap: string | null; recipientKeyId: string | null }> {
  if (recipientKeyWrap === undefined) return { recipientKeyWrap: null, recipientKeyId: null };
  const card = await findRecipientKey(db, recipientId);
  if (!card) throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.noCard);
  return { recipientKeyWrap, recipientKeyId: card.keyId };
}
