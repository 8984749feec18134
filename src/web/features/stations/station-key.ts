import { BlobReader } from '@shared/blob-reader';
import { DEVICE_HEADER } from '@shared/domain/device';
import { UPLOAD_PART_BYTES } from '@shared/schemas/cloud';
import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import {
  STATION_SEALING_MESSAGES,
  type TStationSealing,
  type TStationUnlocked,
} from '@shared/schemas/station-sealing';
import {
  generateContentKey,
  partCount,
  sealPart,
  splitSecret,
  startSealing,
  unwrapKey,
  wrapKey,
  wrapLabel,
  type TKdfParams,
} from '@shared/sealing';
import { apiRequest } from '@web/lib/api-client';
import { readApiError } from '@web/lib/api-error';
import { getDeviceId, initDeviceId } from '@web/lib/device-id';

/**
 * A sealed resident's keys at a recording station, in this page's memory only: never in
 * IndexedDB, Cache Storage or either web storage, and none of them can be exported. Opened with
 * the resident's own password (its key half never leaves this page), dropped on Finish, on the
 * idle timer, on pause, and when the page is hidden for good or put in the back-forward cache.
 */

type THeldKeys = {
  residentId: number;
  /** The account key: it wraps each take's content key for the resident; nothing else. */
  accountKey: CryptoKey;
  /** Each recipient's card key, by recipient: it wraps the take's key for them. */
  cards: Map<number, { keyId: string; key: CryptoKey }>;
};

/** A take sealed and wrapped, kept until saved: a retry sends the same bytes. */
type TSealedTake = {
  takeId: string;
  recipientId: number;
  body: Blob;
  keyWrap: string;
  recipientKeyWrap: string | undefined;
};

let held: THeldKeys | null = null;
let lastSealed: TSealedTake | null = null;
const droppedListeners = new Set<() => void>();

/** Forgets every key and sealed take this page holds for a resident. */
export function dropStationKey(): void {
  const had = held !== null;
  held = null;
  lastSealed = null;
  window.removeEventListener('pagehide', dropStationKey);
  if (had) droppedListeners.forEach((listener) => listener());
}

/** Tells `listener` whenever held keys are dropped; answers how to stop. */
export function onStationKeyDropped(listener: () => void): () => void {
  droppedListeners.add(listener);
  return () => droppedListeners.delete(listener);
}

/** Whether this page holds the keys of this resident now. */
export function holdsStationKeyFor(residentId: number): boolean {
  return held?.residentId === residentId;
}

/** GET /api/station/sealing: whether the chosen resident's takes are sealed. */
export function fetchStationSealing(): Promise<TStationSealing> {
  return apiRequest('/api/station/sealing');
}

/**
 * The resident's password, typed by them: split here exactly as sign-in splits it; only its
 * sign-in half is sent. The wrap that comes back opens with the key half, which stays here.
 */
export async function unlockForResident(input: {
  residentId: number;
  password: string;
  passwordKdf: TKdfParams;
}): Promise<void> {
  dropStationKey();
  const { signInHalf, keyHalf } = await splitSecret('password', input.password, input.passwordKdf);
  const unlocked = await apiRequest<TStationUnlocked>('/api/station/sealing/unlock', {
    method: 'POST',
    body: { passwordProof: signInHalf },
  });
  // The server answers only a wrap made with these same settings (after a reset it refuses).
  const accountKey = await unwrapKey(
    unlocked.passwordWrap,
    keyHalf,
    wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(input.residentId)),
    'wrapping',
  );
  const cards = new Map<number, { keyId: string; key: CryptoKey }>();
  for (const card of unlocked.recipientKeys) {
    try {
      const key = await unwrapKey(
        card.ownerWrap,
        accountKey,
        wrapLabel(...WRAP_LABEL_PARTS.recipientByOwner(card.keyId)),
        'wrapping',
      );
      cards.set(card.recipientId, { keyId: card.keyId, key });
    } catch {
      // A card this key does not open: the resident's own device wraps for it later.
    }
  }
  held = { residentId: input.residentId, accountKey, cards };
  window.addEventListener('pagehide', dropStationKey);
}

/** The take sealed under a new content key, wrapped for the resident and the recipient's card. */
async function sealTake(keys: THeldKeys, takeId: string, recipientId: number, blob: Blob) {
  if (lastSealed?.takeId === takeId && lastSealed.recipientId === recipientId) return lastSealed;
  const contentKey = await generateContentKey();
  const sealing = startSealing({ key: contentKey, messageId: takeId, plaintextLength: blob.size });
  // Each sealed part is handed to the browser as it is made, so the page holds one part's bytes at
  // a time, not the whole take twice over (a long take on a small tablet).
  const parts: Blob[] = [];
  const recording = new BlobReader(blob, UPLOAD_PART_BYTES);
  for (let part = 1; part <= partCount(blob.size, UPLOAD_PART_BYTES); part++) {
    parts.push(new Blob([await sealPart(sealing, recording, part, UPLOAD_PART_BYTES)]));
  }
  recording.close();
  const card = keys.cards.get(recipientId);
  lastSealed = {
    takeId,
    recipientId,
    body: new Blob(parts, { type: 'application/octet-stream' }),
    keyWrap: await wrapKey(
      contentKey,
      keys.accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(takeId)),
    ),
    recipientKeyWrap: card
      ? await wrapKey(
          contentKey,
          card.key,
          wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(takeId, card.keyId)),
        )
      : undefined,
  };
  return lastSealed;
}

/** A sealed resident's take: sealed here, then sent; the server never gets a plain byte of it. */
export async function saveSealedAtStation(input: {
  residentId: number;
  takeId: string;
  blob: Blob;
  recipientId: number;
  durationMs: number;
}): Promise<{ saved: true; recipientName: string }> {
  const keys = held;
  if (!keys || keys.residentId !== input.residentId) {
    throw new Error(STATION_SEALING_MESSAGES.unlockFirst);
  }
  const take = await sealTake(keys, input.takeId, input.recipientId, input.blob);
  const query = new URLSearchParams({
    takeId: input.takeId,
    recipientId: String(input.recipientId),
    durationMs: String(Math.round(input.durationMs)),
    mimeType: input.blob.type.startsWith('video/mp4') ? 'video/mp4' : 'video/webm',
    keyWrap: take.keyWrap,
    ...(take.recipientKeyWrap ? { recipientKeyWrap: take.recipientKeyWrap } : {}),
  });
  const deviceId = getDeviceId() ?? (await initDeviceId());
  const response = await fetch(`/api/station/sealed-recordings?${query}`, {
    method: 'POST',
    credentials: 'include',
    headers: { [DEVICE_HEADER]: deviceId, 'Content-Type': 'application/octet-stream' },
    body: take.body,
  });
  if (!response.ok) throw await readApiError(response);
  if (lastSealed === take) lastSealed = null;
  return (await response.json()) as { saved: true; recipientName: string };
}
