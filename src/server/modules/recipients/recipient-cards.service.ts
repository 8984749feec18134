import {
  ENCRYPTION_MESSAGES,
  type TCardWrapsBody,
  type TSealedCard,
  type TSealedMessageForCard,
} from '../../../shared/schemas/encryption';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { Actor } from '../access/actor';
import type { RequestContext } from '../audit/audit.service';
import { hasAccountKeys } from '../encryption/encryption.repository';
import {
  findRecipientKey,
  findSealedMessagesFor,
  lockRecipientKey,
  storeRecipientWraps,
} from './recipient-keys.repository';
import { auditRecipientEvent, withOwnRecipient } from './recipients.service';
import { storeSealedCard } from './sealed-cards';

/** The part of the app's dependencies these services use. */
type Deps = Pick<
  AppDeps,
  'clock' | 'config' | 'db' | 'log' | 'mail' | 'uploadPartBytes' | 'videoStore'
>;

type OwnRecipient = { actor: Actor; recipientId: number };

/** Cards exist only in accounts with enhanced encryption on. */
async function requireEncryptionOn(deps: Pick<Deps, 'db'>, ownerId: number): Promise<void> {
  if (!(await hasAccountKeys(deps.db, ownerId))) {
    throw new AppError('VALIDATION', ENCRYPTION_MESSAGES.cardNotOn, {
      sealedCard: ENCRYPTION_MESSAGES.cardNotOn,
    });
  }
}

/**
 * POST /api/recipients/:id/sealed-card: a new card made on the owner's device replaces the old
 * one. The old code stops working, the recipient's sessions end, the old card's message wraps go
 * (the owner's device wraps the messages for the new card next), and the recipient is told.
 */
export async function replaceSealedCard(
  deps: Deps,
  context: RequestContext,
  input: OwnRecipient & { card: TSealedCard },
): Promise<{ id: number; keyId: string }> {
  const result = await withOwnRecipient(deps, input, async (tx, owner, recipient) => {
    await requireEncryptionOn({ db: tx }, owner.id);
    await lockRecipientKey(tx, recipient.id);
    await storeSealedCard(deps, tx, {
      person: recipient,
      owner,
      card: input.card,
      isReplacement: true,
    });
    await auditRecipientEvent(tx, context, {
      owner,
      eventType: 'recipient_card_replaced',
      recipientId: recipient.id,
      message: `Made a new card for ${recipient.firstName} ${recipient.lastName}; the old code no longer works`,
    });
    return { id: recipient.id, keyId: input.card.keyId };
  });
  deps.mail.kick();
  return result;
}

/**
 * GET /api/recipients/:id/sealed-messages: the owner's sealed messages for this recipient, each
 * with its key under the account key and whether the recipient's current card opens it, so the
 * owner's device can wrap the rest for the card.
 */
export async function listSealedMessages(
  deps: Deps,
  input: OwnRecipient,
): Promise<{ messages: TSealedMessageForCard[] }> {
  return withOwnRecipient(deps, input, async (tx, owner, recipient) => {
    const card = await findRecipientKey(tx, recipient.id);
    const rows = await findSealedMessagesFor(tx, { ownerId: owner.id, recipientId: recipient.id });
    return {
      messages: rows.map((row) => ({
        videoId: row.videoId,
        keyWrap: row.keyWrap,
        isWrappedForCard: card !== undefined && row.recipientKeyId === card.keyId,
      })),
    };
  });
}

/**
 * PUT /api/recipients/:id/sealed-messages: each message's key wrapped for the recipient's current
 * card, stored in one statement, or nothing at all: no card or a card replaced meanwhile (409), or
 * a message that is not one of the owner's sealed messages for this recipient (404, naming none).
 */
export async function storeCardWraps(
  deps: Deps,
  input: OwnRecipient & { body: TCardWrapsBody },
): Promise<{ stored: number }> {
  const { body } = input;
  const ids = new Set(body.wraps.map((wrap) => wrap.videoId.toLowerCase()));
  if (ids.size !== body.wraps.length) {
    throw new AppError('VALIDATION', ENCRYPTION_MESSAGES.oneWrapEach, {
      wraps: ENCRYPTION_MESSAGES.oneWrapEach,
    });
  }
  return withOwnRecipient(deps, input, async (tx, owner, recipient) => {
    // Locked, so a new card made meanwhile waits, then clears what is stored here.
    const card = await lockRecipientKey(tx, recipient.id);
    if (!card) throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.noCard);
    if (card.keyId !== body.keyId.toLowerCase()) {
      throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.cardChanged);
    }
    const stored = await storeRecipientWraps(tx, {
      ownerId: owner.id,
      recipientId: recipient.id,
      keyId: card.keyId,
      wraps: body.wraps,
    });
    // Thrown inside the transaction: the wraps stored above are rolled back with it.
    if (stored.length !== ids.size) {
      throw new AppError('NOT_FOUND', ENCRYPTION_MESSAGES.sealedMessageNotFound);
    }
    return { stored: stored.length };
  });
}
