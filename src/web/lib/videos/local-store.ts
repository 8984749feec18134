import Dexie, { type Table } from 'dexie';
import type { TRelease } from '@shared/domain/legacy';
import { discardOutgoingParts } from '@web/lib/encryption/outgoing-part';

/**
 * The local video store. Content lives only here for Community Edition, so nothing here may be
 * lost. A video is a record plus chunk records of at most 4 MiB, since browsers refuse or mishandle
 * one huge value: the chunks of a recording in progress are the same rows the saved video keeps,
 * so a crash loses at most the last second and saving never copies the whole recording.
 *
 * Schema upgrades migrate, never delete, so an upgrade never loses a recording: add a new
 * `version(n)` with an `upgrade()` that rewrites rows; never drop the `videos` or `chunks` stores.
 */
export const LOCAL_DB_NAME = 'memento-videos';
/**
 * 35 as the product first set it, then 36: the cloud library's upload bookkeeping (a new store,
 * nothing dropped); 37: the keys of enhanced encryption (two new stores, nothing dropped).
 */
export const LOCAL_DB_VERSION = 37;
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;

export interface TLocalVideo {
  /** A UUID made on this device; the server's index row has the same id. */
  id: string;
  creatorId: number;
  recipientId: number;
  title: string;
  promptId: string | null;
  mimeType: string;
  byteSize: number;
  durationMs: number;
  chunkCount: number;
  createdAt: string;
  /** Local first, then sent to the cloud on paid plans. */
  syncStatus: 'local_only' | 'pending_sync' | 'synced';
  /** When the server confirmed its index row; null until then (a retry sends it again). */
  indexedAt: string | null;
  /**
   * When the recipient may watch, kept here too so the choice survives offline and is sent with
   * a late index row. Not indexed, so no new Dexie version: older records have none ('now').
   */
  release?: TRelease;
  /**
   * The SHA-256 of each 960 KiB piece, as a move to a new device checks them: kept once known
   * (brought by a move, or hashed for one), so the next move need not read the library first.
   * Not indexed either; a video saved again under its id loses it with its old bytes.
   */
  pieceSha256?: string[];
}

/**
 * A resumable upload in progress: the server's upload id and the ETag of every part
 * that arrived, so after a reload, a lost connection or a server restart no finished part is
 * sent again, and resuming never asks the store which parts it has.
 */
export interface TLocalUpload {
  videoId: string;
  uploadId: string;
  partSize: number;
  partCount: number;
  /**
   * The whole copy's SHA-256, for an upload begun before copies were sent part by part; empty
   * for those begun since (a sealed one is named by `keyWrap` too).
   */
  sha256: string;
  etags: Record<number, string>;
  /** A copy sealed while it is sent: its owner's key wrap, new with every sealing. */
  keyWrap?: string;
  /** The SHA-256 of each part sent, which completing the upload declares. */
  partSha256s?: Record<number, string>;
}

/** A recording still in progress or interrupted (a reload, a crash, a closed tab). */
export interface TDraftRecording {
  id: string;
  creatorId: number;
  recipientId: number;
  title: string;
  promptId: string | null;
  mimeType: string;
  startedAt: string;
  updatedAt: string;
  chunkCount: number;
  byteSize: number;
}

/**
 * A key kept on this device for enhanced encryption (src/web/lib/encryption): the device key
 * itself (a CryptoKey that cannot be exported), or an account key or a recipient key wrapped
 * under it.
 */
export type TKeyRow =
  | { id: 'device'; key: CryptoKey }
  | { id: `account:${number}`; userId: number; deviceId: string; wrap: string }
  | { id: `recipient:${string}`; keyId: string; deviceId: string; wrap: string };

/**
 * How one recording is sealed for the cloud, made once and kept until it is there: a resumed
 * upload seals the same bytes again with the same key and nonce prefix.
 */
export interface TSealingRow {
  videoId: string;
  userId: number;
  /** The device id in the label of `contentKeyWrap`. */
  deviceId: string;
  /** The content key wrapped under the device key. */
  contentKeyWrap: string;
  /** The same content key wrapped under the account key, as sent with the upload. */
  ownerKeyWrap: string;
  /** base64url of the header's nonce prefix. */
  noncePrefix: string;
  plaintextLength: number;
}

export interface TChunk {
  videoId: string;
  index: number;
  data: Blob;
}

class LocalVideoDb extends Dexie {
  videos!: Table<TLocalVideo, string>;
  chunks!: Table<TChunk, [string, number]>;
  drafts!: Table<TDraftRecording, string>;
  uploads!: Table<TLocalUpload, string>;
  keys!: Table<TKeyRow, string>;
  sealings!: Table<TSealingRow, string>;

  constructor() {
    super(LOCAL_DB_NAME);
    this.version(35).stores({
      videos: 'id, creatorId, recipientId, [creatorId+recipientId], createdAt',
      chunks: '[videoId+index], videoId',
      drafts: 'id, creatorId',
    });
    // Adds a store; every video and chunk stays as it was.
    this.version(36).stores({ uploads: 'videoId' });
    // Adds two stores; every video, chunk and upload stays as it was.
    this.version(LOCAL_DB_VERSION).stores({ keys: 'id', sealings: 'videoId' });
  }
}

export const localDb = new LocalVideoDb();

function splitIntoChunks(blob: Blob): Blob[] {
  const parts: Blob[] = [];
  for (let offset = 0; offset < blob.size; offset += MAX_CHUNK_BYTES) {
    parts.push(blob.slice(offset, offset + MAX_CHUNK_BYTES, blob.type));
  }
  return parts;
}

async function readBlob(videoId: string, mimeType: string): Promise<Blob> {
  const chunks = await localDb.chunks.where('videoId').equals(videoId).sortBy('index');
  return new Blob(
    chunks.map((chunk) => chunk.data),
    { type: mimeType },
  );
}

export async function startDraft(
  draft: Omit<TDraftRecording, 'startedAt' | 'updatedAt' | 'chunkCount' | 'byteSize'>,
): Promise<TDraftRecording> {
  const now = new Date().toISOString();
  const row: TDraftRecording = {
    ...draft,
    startedAt: now,
    updatedAt: now,
    chunkCount: 0,
    byteSize: 0,
  };
  await localDb.drafts.put(row);
  return row;
}

/** Called for every MediaRecorder `dataavailable` (a timeslice of about a second). */
export async function appendDraftChunk(draftId: string, index: number, data: Blob): Promise<void> {
  await localDb.transaction('rw', localDb.drafts, localDb.chunks, async () => {
    await localDb.chunks.put({ videoId: draftId, index, data });
    const draft = await localDb.drafts.get(draftId);
    if (!draft) return;
    await localDb.drafts.update(draftId, {
      chunkCount: Math.max(draft.chunkCount, index + 1),
      byteSize: draft.byteSize + data.size,
      updatedAt: new Date().toISOString(),
    });
  });
}

export function listDrafts(creatorId: number): Promise<TDraftRecording[]> {
  return localDb.drafts.where('creatorId').equals(creatorId).toArray();
}

export async function getDraftBlob(draftId: string): Promise<Blob> {
  const draft = await localDb.drafts.get(draftId);
  return readBlob(draftId, draft?.mimeType ?? 'video/webm');
}

export async function discardDraft(draftId: string): Promise<void> {
  await localDb.transaction('rw', localDb.drafts, localDb.chunks, async () => {
    await localDb.chunks.where('videoId').equals(draftId).delete();
    await localDb.drafts.delete(draftId);
  });
}

/**
 * Keeps a finished recording: the (repaired) blob replaces the draft's chunks, the video record
 * is written and the draft removed, all in one transaction. Saving the same id twice overwrites.
 */
export async function saveVideo(input: {
  id: string;
  creatorId: number;
  recipientId: number;
  title: string;
  promptId: string | null;
  blob: Blob;
  durationMs: number;
  createdAt?: string;
  indexedAt?: string | null;
  syncStatus?: TLocalVideo['syncStatus'];
  release?: TRelease;
  pieceSha256?: string[];
}): Promise<TLocalVideo> {
  const mimeType = input.blob.type || 'video/webm';
  const parts = splitIntoChunks(input.blob);
  const video: TLocalVideo = {
    id: input.id,
    creatorId: input.creatorId,
    recipientId: input.recipientId,
    title: input.title,
    promptId: input.promptId,
    mimeType,
    byteSize: input.blob.size,
    durationMs: input.durationMs,
    chunkCount: parts.length,
    createdAt: input.createdAt ?? new Date().toISOString(),
    syncStatus: input.syncStatus ?? 'local_only',
    indexedAt: input.indexedAt ?? null,
    release: input.release,
    ...(input.pieceSha256 ? { pieceSha256: input.pieceSha256 } : {}),
  };
  const stores = [
    localDb.videos,
    localDb.chunks,
    localDb.drafts,
    localDb.uploads,
    localDb.sealings,
  ];
  await localDb.transaction('rw', stores, async () => {
    await localDb.chunks.where('videoId').equals(input.id).delete();
    await localDb.chunks.bulkPut(parts.map((data, index) => ({ videoId: input.id, index, data })));
    await localDb.videos.put(video);
    await localDb.drafts.delete(input.id);
    // New bytes under this id (a restore, say): what was sent or sealed of any earlier ones no
    // longer describes them, so an upload starts afresh, under a new key if sealed.
    await localDb.uploads.delete(input.id);
    await localDb.sealings.delete(input.id);
  });
  return video;
}

/**
 * Chunks of a copy being brought down (cloud-fill.ts), written before the copy is checked, in one
 * transaction (each commit costs). Without its video record nothing reads them (the library lists
 * records), so a crash or a failed check leaves nothing that looks kept; `discardStaged` or the
 * next try's chunks replace them.
 */
export async function stageChunks(chunks: TChunk[]): Promise<void> {
  await localDb.chunks.bulkPut(chunks);
}

/** A copy's staged chunks, dropped; never a kept video's (one kept meanwhile, say by playing it). */
export async function discardStaged(videoId: string): Promise<void> {
  await localDb.transaction('rw', localDb.videos, localDb.chunks, async () => {
    if (await localDb.videos.get(videoId)) return;
    await localDb.chunks.where('videoId').equals(videoId).delete();
  });
}

/** A staged copy's chunks as written so far, in order, as one Blob. */
export function readStaged(videoId: string): Promise<Blob> {
  return readBlob(videoId, 'application/octet-stream');
}

/**
 * Keeps staged copies once each was checked whole, in one transaction (every list of the library
 * is read again after each): a record is written only if every chunk of its copy is there, so the
 * library never lists a copy it cannot play. A copy kept meanwhile stays as it is. Answers, for
 * each, whether it is kept.
 */
export async function keepStaged(videos: TLocalVideo[]): Promise<boolean[]> {
  return localDb.transaction('rw', localDb.videos, localDb.chunks, async () => {
    const kept: boolean[] = [];
    for (const video of videos) {
      if (await localDb.videos.get(video.id)) {
        kept.push(true);
        continue;
      }
      const isWhole =
        (await localDb.chunks.where('videoId').equals(video.id).count()) === video.chunkCount;
      if (isWhole) await localDb.videos.put(video);
      kept.push(isWhole);
    }
    return kept;
  });
}

export function markIndexed(videoId: string): Promise<number> {
  return localDb.videos.update(videoId, { indexedAt: new Date().toISOString() });
}

/** This account's videos on this device, newest first; optionally for one recipient. */
export async function listVideos(creatorId: number, recipientId?: number): Promise<TLocalVideo[]> {
  const rows =
    recipientId === undefined
      ? await localDb.videos.where('creatorId').equals(creatorId).toArray()
      : await localDb.videos
          .where('[creatorId+recipientId]')
          .equals([creatorId, recipientId])
          .toArray();
  return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export function getVideo(videoId: string): Promise<TLocalVideo | undefined> {
  return localDb.videos.get(videoId);
}

export async function getVideoBlob(video: TLocalVideo): Promise<Blob> {
  return readBlob(video.id, video.mimeType);
}

export async function deleteLocalVideos(videoIds: readonly string[]): Promise<void> {
  await localDb.transaction(
    'rw',
    [localDb.videos, localDb.chunks, localDb.uploads, localDb.sealings],
    async () => {
      for (const id of videoIds) await localDb.chunks.where('videoId').equals(id).delete();
      await localDb.videos.bulkDelete([...videoIds]);
      await localDb.uploads.bulkDelete([...videoIds]);
      await localDb.sealings.bulkDelete([...videoIds]);
    },
  );
  // A sealed part on its way when a tab closed.
  await discardOutgoingParts(videoIds);
}

/** Keeps a video's piece checksums once hashed (see `TLocalVideo.pieceSha256`). */
export function keepPieceChecksums(videoId: string, pieceSha256: string[]) {
  return localDb.videos.update(videoId, { pieceSha256 });
}

export function setLocalRelease(videoId: string, release: TRelease) {
  return localDb.videos.update(videoId, { release });
}

export function setSyncStatus(videoId: string, syncStatus: TLocalVideo['syncStatus']) {
  return localDb.videos.update(videoId, { syncStatus });
}

export function getLocalUpload(videoId: string): Promise<TLocalUpload | undefined> {
  return localDb.uploads.get(videoId);
}

export async function putLocalUpload(upload: TLocalUpload): Promise<void> {
  await localDb.uploads.put(upload);
}

/** Records one part's ETag (and, sealed while sent, its SHA-256) as soon as it arrives. */
export async function recordPartSent(
  videoId: string,
  partNumber: number,
  etag: string,
  sha256?: string,
) {
  await localDb.transaction('rw', localDb.uploads, async () => {
    const upload = await localDb.uploads.get(videoId);
    if (!upload) return;
    await localDb.uploads.put({
      ...upload,
      etags: { ...upload.etags, [partNumber]: etag },
      ...(sha256 ? { partSha256s: { ...upload.partSha256s, [partNumber]: sha256 } } : {}),
    });
  });
}

export function deleteLocalUpload(videoId: string): Promise<void> {
  return localDb.uploads.delete(videoId);
}

export function countVideos(creatorId: number): Promise<number> {
  return localDb.videos.where('creatorId').equals(creatorId).count();
}

/** Whether this device keeps any message at all, whichever account recorded it. */
export async function holdsAnyVideo(): Promise<boolean> {
  return (await localDb.videos.count()) > 0;
}
