import {
  MAX_CARD_WRAPS,
  type TCardWrapsBody,
  type TRecipientKeyForOwner,
  type TSealedCard,
  type TSealedMessageForCard,
} from '@shared/schemas/encryption';
import type { TRecipient } from '@shared/schemas/recipients';
import { apiRequest } from '@web/lib/api-client';
import { makeSealedCard, openRecipientKeyAsOwner, wrapContentForRecipient } from './cards';
import type { TMadeCard } from './cards';
import { getAccountKey } from './device-keys';
import { fetchEncryptionState } from './encryption-state';

/**
 * The owner's side of recipients' cards: whether this device can make one now, making one for a
 * new recipient or in place of an old card, and wrapping the recipient's sealed messages for it.
 */
export const CARD_TEXT = {
  locked:
    'Sealed messages are locked on this device. Please unlock them first: your recipients’ cards are made here, with your key.',
  unlockLink: 'Unlock sealed messages on this device',
  cannotResend: 'Memento cannot resend this code: keep it safe.',
  needsNewCard: 'Needs a new card',
  needsNewCardWhy:
    'Their code was made before enhanced encryption was turned on, so it cannot open sealed messages.',
  nextOfKinNeedsNewCardWhy:
    'Their emergency code was made before enhanced encryption was turned on, so it cannot open sealed messages, nor your account if you ever lose your password, your devices and your recovery sheet.',
  noEscrowWhy:
    'Their emergency card was made before it could open your account if you ever lose your password, your devices and your recovery sheet.',
  makeNewCard: 'Make a new card',
  wrapFailed: 'Some messages are not ready for them yet. Open this page again to finish.',
} as const;

/**
 * Why this recipient needs a new card, or null when theirs is whole: a code made before
 * enhanced encryption opens nothing sealed, and a next of kin's card must also carry the account
 * key (a card made before it did cannot be given it: the code is not kept anywhere).
 */
export function cardProblemOf(
  recipient: Pick<TRecipient, 'category' | 'sealedKey'>,
): string | null {
  const isNextOfKin = recipient.category === 'next_of_kin';
  if (!recipient.sealedKey) {
    return isNextOfKin ? CARD_TEXT.nextOfKinNeedsNewCardWhy : CARD_TEXT.needsNewCardWhy;
  }
  return isNextOfKin && recipient.sealedKey.hasEscrow === false ? CARD_TEXT.noEscrowWhy : null;
}

/** This device cannot make a card until the owner unlocks it (on the Enhanced encryption page). */
export class LockedDeviceError extends Error {
  override readonly name = 'LockedDeviceError';
  constructor() {
    super(CARD_TEXT.locked);
  }
}

export type TCardReadiness =
  { state: 'off' } | { state: 'locked' } | { state: 'ready'; accountKey: CryptoKey };

/** Off: the server makes codes as before. On: the browser does, with the account key. */
export async function findCardReadiness(userId: number): Promise<TCardReadiness> {
  if ((await fetchEncryptionState()).state === 'off') return { state: 'off' };
  const accountKey = await getAccountKey(userId);
  return accountKey ? { state: 'ready', accountKey } : { state: 'locked' };
}

/** A next of kin's card carries the account key too, so this device opens it exportable once. */
async function escrowFor(userId: number, isNextOfKin: boolean) {
  if (!isNextOfKin) return undefined;
  const accountKey = await getAccountKey(userId, { extractable: true });
  if (!accountKey) throw new LockedDeviceError();
  return { ownerId: userId, accountKey };
}

/** The card to send with a new recipient; null while encryption is off. Throws when locked. */
export async function cardForNewRecipient(
  userId: number,
  email: string,
  options: { isNextOfKin?: boolean } = {},
): Promise<TMadeCard | null> {
  const readiness = await findCardReadiness(userId);
  if (readiness.state === 'off') return null;
  if (readiness.state === 'locked') throw new LockedDeviceError();
  const escrow = await escrowFor(userId, options.isNextOfKin ?? false);
  return makeSealedCard({ email, accountKey: readiness.accountKey, escrow });
}

/** POST /api/recipients/:id/sealed-card: the new card; the old code stops working. */
function sendNewCard(recipientId: number, card: TSealedCard): Promise<unknown> {
  return apiRequest(`/api/recipients/${recipientId}/sealed-card`, { method: 'POST', body: card });
}

/** A new card for an existing recipient, sent: the code to show, and what opens their key. */
export async function replaceCard(input: {
  userId: number;
  recipientId: number;
  email: string;
  isNextOfKin?: boolean;
}): Promise<TMadeCard & { accountKey: CryptoKey }> {
  const readiness = await findCardReadiness(input.userId);
  if (readiness.state !== 'ready') throw new LockedDeviceError();
  const made = await makeSealedCard({
    email: input.email,
    accountKey: readiness.accountKey,
    escrow: await escrowFor(input.userId, input.isNextOfKin ?? false),
  });
  await sendNewCard(input.recipientId, made.card);
  return { ...made, accountKey: readiness.accountKey };
}

export interface TWrapProgress {
  done: number;
  total: number;
  /** Messages whose key could not be opened here, so not wrapped. */
  skipped: number;
}

/**
 * Wraps each of the recipient's sealed messages that their current card does not open yet, a
 * batch at a time. Safe to stop and run again: the server lists only what is still to do.
 */
export async function wrapMessagesForCard(input: {
  recipientId: number;
  sealedKey: TRecipientKeyForOwner;
  accountKey: CryptoKey;
  onProgress?: (progress: TWrapProgress) => void;
}): Promise<TWrapProgress> {
  const { recipientId, sealedKey, accountKey } = input;
  const path = `/api/recipients/${recipientId}/sealed-messages`;
  const { messages } = await apiRequest<{ messages: TSealedMessageForCard[] }>(path);
  const toWrap = messages.filter((message) => !message.isWrappedForCard);
  const progress: TWrapProgress = { done: 0, total: toWrap.length, skipped: 0 };
  input.onProgress?.({ ...progress });
  if (toWrap.length === 0) return progress;
  const recipientKey = await openRecipientKeyAsOwner(sealedKey, accountKey);
  for (let start = 0; start < toWrap.length; start += MAX_CARD_WRAPS) {
    const batch = toWrap.slice(start, start + MAX_CARD_WRAPS);
    const body: TCardWrapsBody = { keyId: sealedKey.keyId, wraps: [] };
    for (const message of batch) {
      try {
        const recipientKeyWrap = await wrapContentForRecipient({
          videoId: message.videoId,
          ownerKeyWrap: message.keyWrap,
          accountKey,
          keyId: sealedKey.keyId,
          recipientKey,
        });
        body.wraps.push({ videoId: message.videoId, recipientKeyWrap });
      } catch {
        // A key this account key does not open (damaged) is left; the rest still reach them.
        progress.skipped += 1;
      }
    }
    if (body.wraps.length > 0) await apiRequest(path, { method: 'PUT', body });
    progress.done += body.wraps.length;
    input.onProgress?.({ ...progress });
  }
  return progress;
}

/** Recipient keys opened on this device this session, by key id: one unwrap per card. */
const openedRecipientKeys = new Map<string, Promise<CryptoKey>>();

/**
 * A new upload's content key wrapped for its recipient's card, so the recipient can open it as
 * soon as it is in the cloud; undefined when the recipient has no card made in a browser (or its
 * key does not open here: the recipients page wraps what is left later).
 */
export async function recipientWrapForUpload(input: {
  videoId: string;
  ownerKeyWrap: string;
  accountKey: CryptoKey;
  sealedKey: TRecipientKeyForOwner | null | undefined;
}): Promise<string | undefined> {
  const { sealedKey, accountKey } = input;
  if (!sealedKey) return undefined;
  let recipientKey = openedRecipientKeys.get(sealedKey.keyId);
  if (!recipientKey) {
    recipientKey = openRecipientKeyAsOwner(sealedKey, accountKey);
    openedRecipientKeys.set(sealedKey.keyId, recipientKey);
  }
  try {
    return await wrapContentForRecipient({
      videoId: input.videoId,
      ownerKeyWrap: input.ownerKeyWrap,
      accountKey,
      keyId: sealedKey.keyId,
      recipientKey: await recipientKey,
    });
  } catch {
    openedRecipientKeys.delete(sealedKey.keyId);
    return undefined;
  }
}
