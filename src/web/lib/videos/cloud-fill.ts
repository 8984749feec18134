import type { TPlayback } from '@shared/schemas/cloud';
import type { TVideoIndexEntry } from '@shared/schemas/videos';
import { apiRequest, isApiError } from '@web/lib/api-client';
import { stagePlainCopy, stageSealedCopy } from './fill-copy';
import { discardStaged, getVideo, keepStaged, listVideos, type TLocalVideo } from './local-store';
import { fetchPlayback, hasCloudCopy, VIDEO_INDEX_QUERY_KEY } from './videos-api';
import { writeInBatches } from './write-batches';

/**
 * Brings the account's cloud copies onto this device: after a move to a new device, after
 * another device was made primary, and after a downgrade (the 'keep all' button). Each copy is
 * checked against the SHA-256 the server recorded before it counts as kept; a sealed copy is
 * opened here and kept opened, as the device that recorded it keeps it.
 */

/** How bringing the messages here stands, for the line on the dashboard. */
export interface TFillProgress {
  /** The account's messages in the cloud. */
  total: number;
  /** Of those, the ones on this device. */
  kept: number;
  /** Sealed messages waiting for this device to be unlocked. */
  locked: number;
  /** Messages whose copy did not match its checksum twice, or would not open: tried next time. */
  failed: number;
  /** 'paused' while there is no connection; 'done' once every message was tried. */
  state: 'filling' | 'paused' | 'done';
}

type TOutcome = 'kept' | 'locked' | 'failed' | 'gone' | 'stopped';

/** With a connection that fails anyway (the server away): try again after this long. */
const RETRY_AFTER_MS = 20_000;
/**
 * The first such try comes sooner: just after the connection returns, the first request can still
 * fail (the network not quite up yet), and no second 'online' comes to wake the fill.
 */
const FIRST_RETRY_AFTER_MS = 2_000;
/** Failures of one message while online before it is left for the next visit. */
const MAX_TROUBLES = 3;

/**
 * Messages on their way at once: two, and up to six while together they come to no more than
 * 32 MiB. A library of short messages waits on each one's requests (its address, the library's
 * transactions) more than on its bytes, and each on its way holds a few chunks at most.
 */
const MIN_IN_HAND = 2;
const MAX_IN_HAND = 6;
const BYTES_IN_HAND = 32 * 1024 * 1024;

/** The account's cloud copies, newest first, and those of them this device does not hold. */
async function findMissing(userId: number) {
  const index = await apiRequest<TVideoIndexEntry[]>(VIDEO_INDEX_QUERY_KEY[0]);
  // A phone's video waiting for the owner's device to seal it opens for nobody yet: later.
  const cloud = index.filter((entry) => hasCloudCopy(entry) && !entry.isWaitingToBeSealed);
  const local = new Set((await listVideos(userId)).map((video) => video.id));
  return { cloud, missing: cloud.filter((entry) => !local.has(entry.id)) };
}

/** The sealing code loads only for an account that has sealed copies. */
const loadOpenSealed = () => import('@web/lib/encryption/open-sealed');

/**
 * The content key of a sealed copy, opened with the account key this device holds; 'locked'
 * when this device must first be unlocked, 'failed' when nothing here opens it.
 */
async function findKey(
  entry: TVideoIndexEntry,
  playback: TPlayback & { sealed: NonNullable<TPlayback['sealed']> },
  userId: number,
): Promise<CryptoKey | 'locked' | 'failed'> {
  const { findContentKey, SEALED_PLAYBACK_MESSAGES } = await loadOpenSealed();
  const found = await findContentKey({
    userId,
    videoId: entry.id,
    url: playback.url,
    keyWrap: playback.sealed.keyWrap,
    mimeType: entry.metadata.mimeType,
    holder: 'owner',
  });
  if (found.isOpened) return found.key;
  return found.message === SEALED_PLAYBACK_MESSAGES.locked ? 'locked' : 'failed';
}

function isOutcome(value: unknown): value is TOutcome {
  return typeof value === 'string';
}

/** A checked copy, written to the library chunk by chunk as it arrived: waiting for its record. */
type TChecked = { byteSize: number; chunkCount: number };

/**
 * Fetches one message and checks it against its checksum (a copy that does not match is fetched
 * once more, then left: never kept). A lost connection is thrown. `onMatched` as above.
 */
async function fetchChecked(
  entry: TVideoIndexEntry,
  userId: number,
  onMatched: () => void,
): Promise<TChecked | TOutcome> {
  const { sha256 } = entry;
  if (!sha256) return 'failed';
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const playback = await fetchPlayback(entry.id);
    const { sealed } = playback;
    const key = sealed ? await findKey(entry, { ...playback, sealed }, userId) : null;
    if (key === 'locked' || key === 'failed') return key;
    const staged = key
      ? await stageSealedCopy(playback.url, { id: entry.id, sha256 }, key)
      : await stagePlainCopy(playback.url, { id: entry.id, sha256 }, onMatched);
    if (staged.isMatch) return { byteSize: staged.byteSize, chunkCount: staged.chunkCount };
    // A sealed copy that does not open is not fetched again: it would not open then either.
    if (staged.isDamaged) return 'failed';
  }
  return 'failed';
}

/** The library's record of a cloud copy. */
function localRecord(
  entry: TVideoIndexEntry,
  userId: number,
): Omit<TLocalVideo, 'byteSize' | 'chunkCount'> {
  return {
    id: entry.id,
    creatorId: userId,
    recipientId: entry.recipientId,
    title: entry.title ?? 'A message',
    promptId: null,
    mimeType: entry.metadata.mimeType || 'video/webm',
    durationMs: entry.metadata.durationMs,
    createdAt: entry.createdAt,
    indexedAt: new Date().toISOString(),
    syncStatus: 'synced',
    release: entry.release,
  };
}

/**
 * Keeps a checked copy by writing its record, once every chunk of it is there. Asked in turn, and
 * those asked while one is being written go together in the next (keepStaged): a library of short
 * messages redrew the dashboard once a message. The record is asked for at once, before any await.
 */
async function keepChecked(
  entry: TVideoIndexEntry,
  userId: number,
  checked: TChecked,
  keep: (video: TLocalVideo) => Promise<boolean>,
): Promise<TOutcome> {
  const { byteSize, chunkCount } = checked;
  if (await keep({ ...localRecord(entry, userId), byteSize, chunkCount })) return 'kept';
  // A chunk went missing since (storage cleared): nothing half kept stays.
  await discardStaged(entry.id);
  return 'failed';
}

/** Until the connection is back ('online'), or `ms` when the browser thinks it never left. */
function waitForConnection(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener('online', done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
  });
}

/**
 * Runs `step` for one message, waiting out lost connections: offline it pauses for as long as it
 * takes; with a connection that fails anyway, a few tries.
 */
async function withPauses<T>(
  step: () => Promise<T | TOutcome>,
  onPause: (isPaused: boolean) => void,
): Promise<T | TOutcome> {
  for (let troubles = 0; ;) {
    try {
      return await step();
    } catch (error) {
      // Deleted meanwhile; or signed out, or the plan no longer reaches the cloud.
      if (isApiError(error) && error.status === 404) return 'gone';
      if (isApiError(error) && (error.status === 401 || error.status === 403)) return 'stopped';
      if (navigator.onLine !== false) troubles += 1;
      if (troubles > MAX_TROUBLES) return 'failed';
      onPause(true);
      await waitForConnection(troubles === 1 ? FIRST_RETRY_AFTER_MS : RETRY_AFTER_MS);
      onPause(false);
    }
  }
}

async function runFill(
  userId: number,
  onProgress: (progress: TFillProgress) => void,
): Promise<TFillProgress> {
  const { cloud, missing } = await findMissing(userId);
  const progress: TFillProgress = {
    total: cloud.length,
    kept: cloud.length - missing.length,
    locked: 0,
    failed: 0,
    state: missing.length === 0 ? 'done' : 'filling',
  };
  // Nothing to bring: nothing to say.
  if (missing.length === 0) return progress;
  const report = (changes: Partial<TFillProgress>) => {
    Object.assign(progress, changes);
    onProgress({ ...progress });
  };
  report({});
  const onPause = (isPaused: boolean) => report({ state: isPaused ? 'paused' : 'filling' });
  let isStopped = false;
  const keep = writeInBatches(keepStaged);
  /**
   * One message: fetched and checked as soon as it starts, kept only once the message before it
   * was settled or handed to be kept, so messages are kept newest first and the next download
   * runs while one is saved. `release` once it no longer needs to be on its way: a plain copy's
   * once all of it arrived and matched (its last chunks may still be being written), a sealed
   * one's once settled; `handed` once it is kept, or asked to be, or settled otherwise.
   */
  const bring = async (
    entry: TVideoIndexEntry,
    before: Promise<unknown>,
    release: () => void,
    handed: () => void,
  ): Promise<TOutcome> => {
    // Played (and so kept) since the list was read.
    if (await getVideo(entry.id)) {
      await before.catch(() => undefined);
      return 'kept';
    }
    const checked = await withPauses(() => fetchChecked(entry, userId, release), onPause);
    await before.catch(() => undefined);
    if (isOutcome(checked) || isStopped) {
      // What an interrupted try wrote is no kept copy: the space is given back.
      await discardStaged(entry.id).catch(() => undefined);
      return isOutcome(checked) ? checked : 'stopped';
    }
    // What was checked stays written (unlisted): a failed save is tried again.
    const kept = withPauses(() => keepChecked(entry, userId, checked, keep), onPause);
    handed();
    return kept;
  };
  // Two messages on their way, more while they are short; the next starts as one is released.
  const started: Promise<TOutcome>[] = [];
  let inHand = 0;
  let bytesInHand = 0;
  let lastHanded: Promise<void> = Promise.resolve();
  const mayStartNext = () => {
    const entry = missing[started.length];
    if (!entry || isStopped) return false;
    if (inHand < MIN_IN_HAND) return true;
    return inHand < MAX_IN_HAND && bytesInHand + entry.metadata.byteSize <= BYTES_IN_HAND;
  };
  const startMore = () => {
    while (mayStartNext()) {
      const entry = missing[started.length]!;
      inHand += 1;
      bytesInHand += entry.metadata.byteSize;
      let isReleased = false;
      const release = () => {
        if (isReleased) return;
        isReleased = true;
        inHand -= 1;
        bytesInHand -= entry.metadata.byteSize;
        startMore();
      };
      let handed = () => {};
      const isHanded = new Promise<void>((resolve) => (handed = resolve));
      const before = lastHanded;
      lastHanded = isHanded;
      started.push(
        bring(entry, before, release, handed).finally(() => {
          release();
          handed();
        }),
      );
    }
  };
  startMore();
  // Each is started by the time the one before it settled (which released it).
  for (let at = 0; at < started.length; at += 1) {
    const outcome = await started[at]!;
    if (outcome === 'stopped') {
      isStopped = true;
      await Promise.allSettled(started.slice(at + 1));
      break;
    }
    if (outcome === 'kept') report({ kept: progress.kept + 1 });
    if (outcome === 'locked') report({ locked: progress.locked + 1 });
    if (outcome === 'failed') report({ failed: progress.failed + 1 });
    if (outcome === 'gone') report({ total: progress.total - 1 });
  }
  report({ state: 'done' });
  return { ...progress };
}

let running: Promise<TFillProgress | null> | null = null;
/** The run that follows the one under way, for those who asked while it ran. */
let next: Promise<TFillProgress | null> | null = null;
const listeners = new Set<(progress: TFillProgress) => void>();

function start(userId: number): Promise<TFillProgress | null> {
  running = runExclusively(userId).finally(() => {
    running = null;
    if (!next) listeners.clear();
  });
  return running;
}

/**
 * Brings every cloud copy of this account that is not on this device here, newest first, the
 * next one arriving while the last is kept (two on their way, more while they are short, each
 * read a part at a time). One run per tab at a time; a caller while one runs (which listed the
 * copies before it asked: a phone's video sealed for the owner meanwhile) gets one more run after
 * it, shared with any other caller meanwhile, and hears the progress of both. Across tabs, when
 * the browser has Web Locks, a tab finding another one at it does nothing (answers null). A
 * reload starts again where it stopped, since whatever is already here is skipped. Answers how
 * the caller's run ended.
 */
export function fillFromCloud(
  userId: number,
  onProgress: (progress: TFillProgress) => void,
): Promise<TFillProgress | null> {
  listeners.add(onProgress);
  if (!running) return start(userId);
  next ??= running.then(() => {
    next = null;
    return start(userId);
  });
  return next;
}

function runExclusively(userId: number): Promise<TFillProgress | null> {
  const tell = (progress: TFillProgress) => {
    for (const listener of listeners) listener(progress);
  };
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request(`memento-fill-${userId}`, { ifAvailable: true }, (lock) =>
      lock ? runFill(userId, tell) : null,
    );
  }
  return runFill(userId, tell);
}
