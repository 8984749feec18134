import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import { generateWrappingKey, unwrapKey, wrapKey, wrapLabel } from '@shared/sealing';
import { getDeviceId, initDeviceId } from '@web/lib/device-id';
import { localDb } from '@web/lib/videos/local-store';
import { forgetSender } from '@web/service-worker/background-sender';

/**
 * The keys of enhanced encryption kept on this device. The device key never leaves it: a
 * CryptoKey that cannot be exported, kept in IndexedDB. The account key is kept only wrapped
 * under the device key, so this device opens sealed messages without the password being typed
 * again, and a copy of the database alone opens nothing.
 */
const DEVICE_ROW = 'device';
const accountRow = (userId: number) => `account:${userId}` as const;
const recipientRow = (keyId: string) => `recipient:${keyId}` as const;

export async function thisDeviceId(): Promise<string> {
  return getDeviceId() ?? (await initDeviceId());
}

async function findDeviceKey(): Promise<CryptoKey | null> {
  const row = await localDb.keys.get(DEVICE_ROW);
  return row && 'key' in row ? row.key : null;
}

/** The device key, made on first use. Two tabs making one at once keep whichever came first. */
export async function getDeviceKey(): Promise<CryptoKey> {
  const existing = await findDeviceKey();
  if (existing) return existing;
  const fresh = await generateWrappingKey({ extractable: false });
  return localDb.transaction('rw', localDb.keys, async () => {
    const first = await findDeviceKey();
    if (first) return first;
    await localDb.keys.put({ id: DEVICE_ROW, key: fresh });
    return fresh;
  });
}

function accountByDeviceLabel(userId: number, deviceId: string): string {
  return wrapLabel(...WRAP_LABEL_PARTS.accountByDevice(userId, deviceId));
}

/** Keeps the account key on this device, wrapped under the device key. */
export async function keepAccountKey(userId: number, accountKey: CryptoKey): Promise<void> {
  const deviceKey = await getDeviceKey();
  const deviceId = await thisDeviceId();
  const wrap = await wrapKey(accountKey, deviceKey, accountByDeviceLabel(userId, deviceId));
  await localDb.keys.put({ id: accountRow(userId), userId, deviceId, wrap });
}

/**
 * The account key (it cannot be exported), or null when this device must first be unlocked with
 * the password or the recovery sheet. Extractable only to be wrapped at once (the next of kin's
 * escrow).
 */
export async function getAccountKey(
  userId: number,
  options: { extractable?: boolean } = {},
): Promise<CryptoKey | null> {
  const row = await localDb.keys.get(accountRow(userId));
  const deviceKey = await findDeviceKey();
  if (!row || !('wrap' in row) || !deviceKey) return null;
  try {
    return await unwrapKey(
      row.wrap,
      deviceKey,
      accountByDeviceLabel(userId, row.deviceId),
      'wrapping',
      options,
    );
  } catch {
    // A wrap this device key does not open is as good as none: unlocking again replaces it.
    return null;
  }
}

/** Whether this device holds the account key (without opening it): for the page's live state. */
export async function hasAccountKey(userId: number): Promise<boolean> {
  return (await localDb.keys.get(accountRow(userId))) !== undefined;
}

function recipientOnDeviceLabel(keyId: string, deviceId: string): string {
  return wrapLabel(...WRAP_LABEL_PARTS.recipientOnDevice(keyId, deviceId));
}

/** Keeps a recipient key (opened with the recipient's code) on this device, under the device key. */
export async function keepRecipientKey(keyId: string, recipientKey: CryptoKey): Promise<void> {
  const deviceKey = await getDeviceKey();
  const deviceId = await thisDeviceId();
  const wrap = await wrapKey(recipientKey, deviceKey, recipientOnDeviceLabel(keyId, deviceId));
  await localDb.keys.put({ id: recipientRow(keyId), keyId, deviceId, wrap });
}

/** The recipient key `keyId` (it cannot be exported), or null when this device does not hold it. */
export async function getRecipientKey(keyId: string): Promise<CryptoKey | null> {
  const row = await localDb.keys.get(recipientRow(keyId));
  const deviceKey = await findDeviceKey();
  if (!row || !('keyId' in row) || !deviceKey) return null;
  try {
    return await unwrapKey(
      row.wrap,
      deviceKey,
      recipientOnDeviceLabel(keyId, row.deviceId),
      'wrapping',
    );
  } catch {
    // As for the account key: signing in with the code again replaces it.
    return null;
  }
}

/**
 * At sign-out: no account key or recipient key stays on this device. The device key stays, with
 * the sealing of recordings still on their way, which opens nothing but this device's own
 * recordings (kept here in the clear anyway), so an upload under way resumes with the same bytes.
 */
export async function forgetAccountKeys(): Promise<void> {
  await localDb.keys.where('id').startsWith('account:').delete();
  await localDb.keys.where('id').startsWith('recipient:').delete();
  // Nor whom the worker sends for once Memento is closed.
  await forgetSender().catch(() => undefined);
  // Nor any content key the service worker was handed to play a sealed message.
  await import('./sealed-stream').then((worker) => worker.forgetSealedPlayback());
}
