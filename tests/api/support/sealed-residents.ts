import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { users } from '../../../src/server/db/schema';
import { hashSecret } from '../../../src/server/lib/crypto';
import { WRAP_LABEL_PARTS } from '../../../src/shared/schemas/encryption';
import type {
  TStationSealing,
  TStationUnlocked,
} from '../../../src/shared/schemas/station-sealing';
import {
  generateContentKey,
  partCount,
  sealPart,
  splitSecret,
  startSealing,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from '../../../src/shared/sealing';
import { GOOD_PASSWORD, TestDevice, type TestApp } from '../../setup/app';
import { makeSealedCard, turnOn } from '../../setup/encryption';
import { residentTablet } from './care-homes';

// A care home's resident with enhanced encryption on, and what a station's browser does for them:
// split the password they type, open the account key from its wrap, seal a take and wrap its key.

/**
 * The resident turns enhanced encryption on from their own tablet (a password of their own first)
 * and makes their next of kin a card there; answers the account key, the card and the password.
 */
export async function sealResident(t: TestApp, resident: { userId: number }) {
  await t.db
    .update(users)
    .set({ passwordHash: await hashSecret(GOOD_PASSWORD) })
    .where(eq(users.id, resident.userId));
  const tablet = await residentTablet(t, resident.userId, 'premium');
  const accountKey = await turnOn(tablet, resident.userId);
  const [kin] = await t.db
    .select()
    .from(users)
    .where(and(eq(users.createdById, resident.userId), eq(users.category, 'next_of_kin')));
  const card = await makeSealedCard(accountKey, kin!.email);
  const made = await tablet.post(`/api/recipients/${kin!.id}/sealed-card`, card.body);
  expect(made.statusCode).toBe(200);
  return { tablet, accountKey, card, kin: kin!, password: GOOD_PASSWORD };
}

/** The station's browser: the typed password's two halves, split as sign-in splits it. */
export async function splitAtStation(station: TestDevice, password: string) {
  const sealing = (await station.get('/api/station/sealing')).json<TStationSealing>();
  if (!sealing.isSealed || !sealing.passwordKdf) throw new Error('not a sealed resident');
  return splitSecret('password', password, sealing.passwordKdf);
}

/** The station's browser after the proof was right: the account key and the recipients' keys. */
export async function openAtStation(
  unlocked: TStationUnlocked,
  keyHalf: CryptoKey,
  residentId: number,
) {
  const accountKey = await unwrapKey(
    unlocked.passwordWrap,
    keyHalf,
    wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(residentId)),
    'wrapping',
  );
  const cards = new Map<number, { keyId: string; key: CryptoKey }>();
  for (const card of unlocked.recipientKeys) {
    const key = await unwrapKey(
      card.ownerWrap,
      accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.recipientByOwner(card.keyId)),
      'wrapping',
    );
    cards.set(card.recipientId, { keyId: card.keyId, key });
  }
  return { accountKey, cards };
}

/** A take sealed as the station's browser seals it, its key wrapped for the resident and the card. */
export async function sealTake(
  takeId: string,
  recording: Buffer,
  keys: { accountKey: CryptoKey; card?: { keyId: string; key: CryptoKey } | undefined },
) {
  const contentKey = await generateContentKey();
  const sealing = startSealing({
    key: contentKey,
    messageId: takeId,
    plaintextLength: recording.length,
  });
  const blob = new Blob([new Uint8Array(recording)]);
  const partBytes = 8 * 1024 * 1024;
  const pieces: Uint8Array[] = [];
  for (let n = 1; n <= partCount(recording.length, partBytes); n++) {
    pieces.push(await sealPart(sealing, blob, n, partBytes));
  }
  const keyWrap = await wrapKey(
    contentKey,
    keys.accountKey,
    wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(takeId)),
  );
  const recipientKeyWrap = keys.card
    ? await wrapKey(
        contentKey,
        keys.card.key,
        wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(takeId, keys.card.keyId)),
      )
    : undefined;
  return { sealed: Buffer.concat(pieces), keyWrap, recipientKeyWrap };
}

/** POST /api/station/sealed-recordings, as the station's browser sends a sealed take. */
export function saveSealedTake(
  station: TestDevice,
  input: {
    takeId: string;
    recipientId: number;
    sealed: Buffer;
    keyWrap: string;
    recipientKeyWrap?: string | undefined;
  },
) {
  const query = new URLSearchParams({
    takeId: input.takeId,
    recipientId: String(input.recipientId),
    durationMs: '4000',
    mimeType: 'video/webm',
    keyWrap: input.keyWrap,
    ...(input.recipientKeyWrap ? { recipientKeyWrap: input.recipientKeyWrap } : {}),
  });
  return station.request({
    method: 'POST',
    url: `/api/station/sealed-recordings?${query.toString()}`,
    payload: input.sealed,
    headers: { 'content-type': 'application/octet-stream' },
  });
}
