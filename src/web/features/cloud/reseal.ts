import type { TCreateUploadResult } from '@shared/schemas/cloud';
import type { TPlainCopies, TRecipientKeyForOwner } from '@shared/schemas/encryption';
import type { TRecipientList } from '@shared/schemas/recipients';
import type { TVideoIndexEntry } from '@shared/schemas/videos';
import { apiRequest, NetworkError } from '@web/lib/api-client';
import { getAccountKey } from '@web/lib/encryption/device-keys';
import { recipientWrapForUpload } from '@web/lib/encryption/owner-cards';
import {
  forgetSealing,
  prepareSealedCopy,
  type TSealedCopy,
} from '@web/lib/encryption/seal-upload';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';
import { matchesCopyChecksum } from '@web/lib/copy-checksum';
import { getVideo, getVideoBlob } from '@web/lib/videos/local-store';
import { fetchPlayback, VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { sendSealedParts } from './send-sealed';

/**
 * Seals again the cloud copies made before enhanced encryption was on, on the owner's device,
 * one message at a time: from this device's copy when it matches the cloud's, else from the
 * cloud's copy, checked against its SHA-256. The server swaps the copies and deletes the plain
 * one; a run stopped anywhere is simply run again, as the server lists only what is left.
 */

export const PLAIN_COPIES_QUERY_KEY = ['/api/encryption/plain-copies'] as const;

/** How a run stands, for the progress line. */
export interface TResealProgress {
  /** Messages this run set out to seal. */
  total: number;
  sealed: number;
  /** Messages that could not be sealed this time: the next run tries them again. */
  failed: number;
  state: 'sealing' | 'paused' | 'locked' | 'done';
}

/** A copy that did not match its checksum or could not be fetched: left for the next run. */
class CopyUnavailableError extends Error {}

async function downloadPlain(entry: TVideoIndexEntry): Promise<Blob> {
  const { url } = await fetchPlayback(entry.id);
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    throw new NetworkError(error);
  }
  if (!response.ok) throw new CopyUnavailableError(`the copy answered ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const matches = await matchesCopyChecksum(bytes, entry.sha256 ?? '');
  // The response's own buffer: dropped, never emptied (see releaseBytes).
  const blob = new Blob([bytes], { type: entry.metadata.mimeType });
  if (!matches) throw new CopyUnavailableError('the copy did not match its checksum');
  return blob;
}

/** The recording as its plain cloud copy holds it: this device's copy when it is the same bytes. */
async function plainRecording(entry: TVideoIndexEntry): Promise<Blob> {
  const local = await getVideo(entry.id);
  if (local) {
    const blob = await getVideoBlob(local);
    if (blob.size > 0 && entry.sha256 && (await matchesCopyChecksum(blob, entry.sha256))) {
      return blob;
    }
  }
  return downloadPlain(entry);
}

/**
 * Sends the sealed copy through the same upload steps as the sync engine, each part sealed as it
 * goes; the server checks every part and swaps the copy in.
 */
async function uploadSealed(copy: TSealedCopy, body: Record<string, unknown>) {
  const created = await apiRequest<TCreateUploadResult>('/api/uploads', { method: 'POST', body });
  if (created.state === 'synced') return;
  const sent: Array<{ partNumber: number; etag: string; sha256: string }> = [];
  await sendSealedParts({
    copy,
    upload: created,
    missing: Array.from({ length: created.partCount }, (_, index) => index + 1),
    signedAtStart: created.parts,
    onSent: async (part) => {
      sent.push(part);
    },
  });
  await apiRequest<TVideoIndexEntry>(`/api/uploads/${created.uploadId}/complete`, {
    method: 'POST',
    body: { parts: sent },
  });
}

async function resealOne(
  entry: TVideoIndexEntry,
  userId: number,
  accountKey: CryptoKey,
  cards: Map<number, TRecipientKeyForOwner>,
): Promise<void> {
  const recording = await plainRecording(entry);
  const copy = await prepareSealedCopy({ videoId: entry.id, userId, blob: recording, accountKey });
  const recipientKeyWrap = await recipientWrapForUpload({
    videoId: entry.id,
    ownerKeyWrap: copy.keyWrap,
    accountKey,
    sealedKey: cards.get(entry.recipientId),
  });
  await uploadSealed(copy, {
    videoId: entry.id,
    title: entry.title ?? 'A message',
    promptId: null,
    byteSize: copy.byteSize,
    sealed: { keyWrap: copy.keyWrap, recipientKeyWrap },
  });
  await forgetSealing(entry.id);
}

async function findCards(): Promise<Map<number, TRecipientKeyForOwner>> {
  const { recipients } = await apiRequest<TRecipientList>(RECIPIENTS_QUERY_KEY[0]);
  return new Map(
    recipients.flatMap((recipient) =>
      recipient.sealedKey ? [[recipient.id, recipient.sealedKey] as const] : [],
    ),
  );
}

async function runOnce(
  userId: number,
  tell: (progress: TResealProgress) => void,
): Promise<TResealProgress> {
  const progress: TResealProgress = { total: 0, sealed: 0, failed: 0, state: 'sealing' };
  const report = (changes: Partial<TResealProgress>) => {
    Object.assign(progress, changes);
    tell({ ...progress });
    return { ...progress };
  };
  const accountKey = await getAccountKey(userId);
  if (!accountKey) return report({ state: 'locked' });
  try {
    const { sealableIds } = await apiRequest<TPlainCopies>(PLAIN_COPIES_QUERY_KEY[0]);
    if (sealableIds.length === 0) return report({ state: 'done' });
    const index = await apiRequest<TVideoIndexEntry[]>(VIDEO_INDEX_QUERY_KEY[0]);
    const cards = await findCards();
    const byId = new Map(index.map((entry) => [entry.id, entry]));
    report({ total: sealableIds.length });
    for (const id of sealableIds) {
      const entry = byId.get(id);
      try {
        if (!entry?.sha256) throw new CopyUnavailableError('not in the index');
        await resealOne(entry, userId, accountKey, cards);
        report({ sealed: progress.sealed + 1 });
      } catch (error) {
        // Offline or the server away: the rest waits for the next run.
        if (error instanceof NetworkError) throw error;
        report({ failed: progress.failed + 1 });
      }
    }
    return report({ state: 'done' });
  } catch (error) {
    if (error instanceof NetworkError) return report({ state: 'paused' });
    throw error;
  }
}

/**
 * Seals every plain cloud copy that can be sealed now. One run at a time across tabs when the
 * browser has Web Locks (a tab finding another at it answers null).
 */
export function sealPlainCopies(
  userId: number,
  onProgress: (progress: TResealProgress) => void,
): Promise<TResealProgress | null> {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request(`memento-reseal-${userId}`, { ifAvailable: true }, (lock) =>
      lock ? runOnce(userId, onProgress) : null,
    );
  }
  return runOnce(userId, onProgress);
}
