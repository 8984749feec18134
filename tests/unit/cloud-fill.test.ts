import 'fake-indexeddb/auto';
import { createHash, randomUUID } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { compositeChecksumInput } from '@shared/domain/composite-checksum';
import { UPLOAD_PART_BYTES } from '@shared/schemas/cloud-messages';
import { generateWrappingKey } from '@shared/sealing';
import type { TPlayback } from '@shared/schemas/cloud';
import type { TVideoIndexEntry } from '@shared/schemas/videos';
import { saveDeviceId } from '@web/lib/device-id';
import { forgetAccountKeys, keepAccountKey } from '@web/lib/encryption/device-keys';
import { outgoingPartSealer, prepareSealedCopy } from '@web/lib/encryption/seal-upload';
import { fillFromCloud, type TFillProgress } from '@web/lib/videos/cloud-fill';
import {
  getVideo,
  getVideoBlob,
  listVideos,
  localDb,
  MAX_CHUNK_BYTES,
  saveVideo,
  type TLocalVideo,
} from '@web/lib/videos/local-store';
import { recording } from './sealing-helpers';

// A new primary device brings the account's cloud copies down: each checked against the index's
// SHA-256, a sealed one opened here, a lost connection waited out. The network is a stand-in
// (the browser test drives the real server); the local library is IndexedDB's.

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const chunksOf = (videoId: string) => localDb.chunks.where('videoId').equals(videoId).count();

/**
 * A copy that sends its first `upTo` bytes, then fails (`fails`) or goes silent until the fetch
 * is aborted, as a real body does when the connection goes.
 */
function cutOff(bytes: Uint8Array<ArrayBuffer>, upTo: number, fails: boolean) {
  return (init?: RequestInit) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, upTo));
        if (fails) controller.error(new TypeError('network error'));
        init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
      },
    });
    return new Response(body, { status: 200 });
  };
}

interface TServed {
  entry: TVideoIndexEntry;
  /** What the store hands over, one answer per download (the last one repeats). */
  answers: (Uint8Array<ArrayBuffer> | ((init?: RequestInit) => Response))[];
  sealed?: TPlayback['sealed'];
}

let userId = 100;
let page: EventTarget & { location: { href: string; origin: string } };
let browser: { onLine: boolean };

beforeAll(() => {
  saveDeviceId('0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8');
});

beforeEach(() => {
  userId += 1;
  page = Object.assign(new EventTarget(), {
    location: { href: 'http://localhost:5074/', origin: 'http://localhost:5074' },
  });
  browser = { onLine: true };
  vi.stubGlobal('window', page);
  vi.stubGlobal('navigator', browser);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function indexEntry(bytes: Uint8Array, minutesAgo: number, title: string): TVideoIndexEntry {
  return {
    id: randomUUID(),
    recipientId: 7,
    title,
    deviceId: null,
    storageType: 'cloud',
    syncStatus: 'synced',
    metadata: { byteSize: bytes.length, durationMs: 4000, mimeType: 'video/webm' },
    createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    release: { rule: 'now', at: null },
    sha256: sha256(bytes),
  };
}

/**
 * The server and the store as the device sees them: the index (newest first), a playback answer
 * per message, and its copy. Answers the list of copy downloads made. `beforeDownload` runs
 * first on each download (a lost connection throws there).
 */
function serve(served: TServed[], beforeDownload: (id: string) => void = () => undefined) {
  const downloads: string[] = [];
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/videos') return json(served.map((item) => item.entry));
    const item = served.find((candidate) => url.includes(candidate.entry.id));
    if (!item) return new Response('{"message":"Not found"}', { status: 404 });
    if (url.endsWith('/playback')) {
      const playback: TPlayback = {
        url: `/api/videos/${item.entry.id}/content?sig=1`,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
        mimeType: 'video/webm',
        byteSize: item.entry.metadata.byteSize,
        durationMs: 4000,
        sealed: item.sealed ?? null,
      };
      return json(playback);
    }
    beforeDownload(item.entry.id);
    const answer =
      item.answers[
        Math.min(downloads.filter((id) => id === item.entry.id).length, item.answers.length - 1)
      ]!;
    downloads.push(item.entry.id);
    if (typeof answer === 'function') return answer(init);
    return new Response(answer.slice(), { status: 200 });
  });
  return downloads;
}

async function keptBytes(videoId: string) {
  const video = await getVideo(videoId);
  return video ? sha256(await bytesOf(await getVideoBlob(video))) : 'missing';
}

describe('bringing the cloud copies to a new device', () => {
  it('keeps each missing copy, newest first, checked and as the cloud holds it', async () => {
    const older = recording(300_000);
    const newer = recording(200_001);
    const already = recording(1000);
    const served = [
      { entry: indexEntry(newer, 1, 'For Susan'), answers: [newer] },
      { entry: indexEntry(already, 2, 'Here already'), answers: [already] },
      { entry: indexEntry(older, 3, 'For Tom'), answers: [older] },
    ];
    const onlyLocal = { ...indexEntry(already, 0, 'Not sent'), syncStatus: 'local_only' as const };
    await saveVideo({
      id: served[1]!.entry.id,
      creatorId: userId,
      recipientId: 7,
      title: 'Here already',
      promptId: null,
      blob: new Blob([already]),
      durationMs: 4000,
    });
    const downloads = serve([...served, { entry: onlyLocal, answers: [already] }]);
    const seen: TFillProgress[] = [];

    const ended = await fillFromCloud(userId, (progress) => seen.push(progress));

    expect(ended).toEqual({ total: 3, kept: 3, locked: 0, failed: 0, state: 'done' });
    expect(downloads).toEqual([served[0]!.entry.id, served[2]!.entry.id]);
    expect(seen.map(({ kept, state }) => `${kept} ${state}`)).toEqual([
      '1 filling',
      '2 filling',
      '3 filling',
      '3 done',
    ]);
    expect(await keptBytes(served[0]!.entry.id)).toBe(sha256(newer));
    expect(await keptBytes(served[2]!.entry.id)).toBe(sha256(older));
    expect(await getVideo(served[0]!.entry.id)).toMatchObject({
      creatorId: userId,
      title: 'For Susan',
      mimeType: 'video/webm',
      syncStatus: 'synced',
      createdAt: served[0]!.entry.createdAt,
    });
    expect((await getVideo(served[0]!.entry.id))!.indexedAt).not.toBeNull();
    expect(await getVideo(onlyLocal.id)).toBeUndefined();
  });

  it('brings short messages several at a time, and long ones two at a time', async () => {
    let onTheirWay = 0;
    let most = 0;
    let held: (() => void)[] = [];
    const letThrough = () => {
      for (const send of held.splice(0)) send();
    };
    /** Copies of the library being filled not yet asked for. */
    let notAsked = 0;
    /**
     * A copy whose body waits until `expected` copies are on their way, or every copy was asked
     * for (and a moment more, for any beyond it to start), or five seconds at most (a machine
     * busy with other tests can take a second to start the next): counted while on its way.
     */
    const heldUntil = (bytes: Uint8Array<ArrayBuffer>, expected: number) => () => {
      onTheirWay += 1;
      notAsked -= 1;
      most = Math.max(most, onTheirWay);
      if (onTheirWay === expected || notAsked === 0) setTimeout(letThrough, 100);
      setTimeout(letThrough, 5000);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          held.push(() => {
            onTheirWay -= 1;
            controller.enqueue(bytes.slice());
            controller.close();
          });
        },
      });
      return new Response(body, { status: 200 });
    };
    const library = (count: number, statedBytes: number, expected: number) => {
      notAsked = count;
      return Array.from({ length: count }, (_, at) => {
        const bytes = recording(20_000 + at);
        const entry = indexEntry(bytes, at + 1, `Message ${at}`);
        return {
          entry: { ...entry, metadata: { ...entry.metadata, byteSize: statedBytes } },
          answers: [heldUntil(bytes, expected)],
        };
      });
    };

    serve(library(8, 2 * 1024 * 1024, 6));
    // Which records were written, in which transaction.
    const written: { title: string; transaction: unknown }[] = [];
    const hearWrites = (_key: unknown, video: TLocalVideo, transaction: unknown) => {
      written.push({ title: video.title, transaction });
    };
    localDb.videos.hook('creating', hearWrites);
    try {
      expect(await fillFromCloud(userId, () => undefined)).toMatchObject({ kept: 8 });
    } finally {
      localDb.videos.hook('creating').unsubscribe(hearWrites);
    }
    expect(most).toBe(6);
    // Kept newest first; those that arrived together, kept together.
    expect(written.map((write) => write.title)).toEqual(
      Array.from({ length: 8 }, (_, at) => `Message ${at}`),
    );
    expect(new Set(written.map((write) => write.transaction)).size).toBeLessThan(8);

    userId += 1;
    most = 0;
    held = [];
    serve(library(4, 20 * 1024 * 1024, 2));
    expect(await fillFromCloud(userId, () => undefined)).toMatchObject({ kept: 4 });
    expect(most).toBe(2);
  });

  it('fetches a copy that does not match its checksum once more, then leaves it unkept', async () => {
    const good = recording(50_000);
    const changed = good.slice();
    changed[10] = (changed[10] ?? 0) ^ 1;
    const mended = { entry: indexEntry(good, 1, 'Mended'), answers: [changed, good] };
    const broken = { entry: indexEntry(good, 2, 'Broken'), answers: [changed] };
    const downloads = serve([mended, broken]);

    const ended = await fillFromCloud(userId, () => undefined);

    expect(ended).toMatchObject({ total: 2, kept: 1, failed: 1, state: 'done' });
    // The next message arrives while one is checked: in any order, each fetched twice, no more.
    expect([...downloads].sort()).toEqual(
      [mended.entry.id, mended.entry.id, broken.entry.id, broken.entry.id].sort(),
    );
    expect(await keptBytes(mended.entry.id)).toBe(sha256(good));
    expect(await getVideo(broken.entry.id)).toBeUndefined();
    // Written as it arrived, then given back: nothing of the unkept copy stays.
    expect(await chunksOf(broken.entry.id)).toBe(0);
  });

  it('keeps a plain copy known by its parts’ composite checksum, as devices send them now', async () => {
    const bytes = recording(UPLOAD_PART_BYTES + 4321);
    const parts = [bytes.subarray(0, UPLOAD_PART_BYTES), bytes.subarray(UPLOAD_PART_BYTES)];
    const composite = sha256(compositeChecksumInput(parts.map(sha256)));
    const sent = {
      entry: { ...indexEntry(bytes, 1, 'By parts'), sha256: composite },
      answers: [bytes],
    };
    const changed = bytes.slice();
    changed[UPLOAD_PART_BYTES + 5] = (changed[UPLOAD_PART_BYTES + 5] ?? 0) ^ 1;
    const wrong = {
      entry: { ...indexEntry(bytes, 2, 'Changed'), sha256: composite },
      answers: [changed],
    };
    serve([sent, wrong]);

    const ended = await fillFromCloud(userId, () => undefined);

    expect(ended).toMatchObject({ total: 2, kept: 1, failed: 1, state: 'done' });
    expect(await keptBytes(sent.entry.id)).toBe(sha256(bytes));
    expect(await getVideo(wrong.entry.id)).toBeUndefined();
    expect(await chunksOf(wrong.entry.id)).toBe(0);
  });

  it('opens a sealed copy here and keeps the recording itself; a locked device waits', async () => {
    const plain = recording(400_000);
    const accountKey = await generateWrappingKey({ extractable: true });
    await keepAccountKey(userId, accountKey);
    const id = randomUUID();
    const sealed = await prepareSealedCopy({
      videoId: id,
      userId,
      blob: new Blob([plain], { type: 'video/webm' }),
      accountKey,
    });
    // Sealed while it was sent: the server recorded the composite of its parts' checksums.
    const part = await outgoingPartSealer(sealed, UPLOAD_PART_BYTES)(1);
    const sealedBytes = await bytesOf(part.body.body);
    expect(sealedBytes.length).toBe(sealed.byteSize);
    const composite = sha256(compositeChecksumInput([sha256(sealedBytes)]));
    const item = {
      entry: { ...indexEntry(sealedBytes, 1, 'Sealed'), id, sha256: composite },
      answers: [sealedBytes],
      sealed: { keyWrap: sealed.keyWrap, holder: 'owner' as const, keyId: null },
    };

    await forgetAccountKeys();
    let downloads = serve([item]);
    expect(await fillFromCloud(userId, () => undefined)).toMatchObject({ kept: 0, locked: 1 });
    expect(downloads).toEqual([]);
    expect(await getVideo(id)).toBeUndefined();

    await keepAccountKey(userId, accountKey);
    downloads = serve([item]);
    expect(await fillFromCloud(userId, () => undefined)).toMatchObject({ kept: 1, locked: 0 });
    expect(downloads).toEqual([id]);
    expect(await keptBytes(id)).toBe(sha256(plain));
  });

  it('opens a sealed copy of several parts as it arrives; a changed one is refused, not fetched again, and leaves nothing', async () => {
    const plain = recording(2 * UPLOAD_PART_BYTES + 300_000);
    const accountKey = await generateWrappingKey({ extractable: true });
    await keepAccountKey(userId, accountKey);
    const sealedCopy = async (videoId: string) => {
      const sealed = await prepareSealedCopy({
        videoId,
        userId,
        blob: new Blob([plain], { type: 'video/webm' }),
        accountKey,
      });
      const seal = outgoingPartSealer(sealed, UPLOAD_PART_BYTES);
      const parts = [await seal(1), await seal(2), await seal(3)];
      const bytes = new Uint8Array(
        await new Blob(parts.map((part) => part.body.body)).arrayBuffer(),
      );
      expect(bytes.length).toBe(sealed.byteSize);
      return {
        bytes,
        composite: sha256(compositeChecksumInput(parts.map((part) => part.sha256))),
        keyWrap: sealed.keyWrap,
      };
    };
    const goodId = randomUUID();
    const changedId = randomUUID();
    // A byte of the second part changed in the store, its recorded checksum left as it was.
    const changed = await sealedCopy(changedId);
    const tampered = changed.bytes.slice();
    tampered[UPLOAD_PART_BYTES + 1000] = (tampered[UPLOAD_PART_BYTES + 1000] ?? 0) ^ 1;
    const owner = { holder: 'owner' as const, keyId: null };
    const mine = await sealedCopy(goodId);
    const downloads = serve([
      {
        entry: {
          ...indexEntry(mine.bytes, 1, 'Sealed, whole'),
          id: goodId,
          sha256: mine.composite,
        },
        answers: [mine.bytes],
        sealed: { keyWrap: mine.keyWrap, ...owner },
      },
      {
        entry: {
          ...indexEntry(tampered, 2, 'Sealed, changed'),
          id: changedId,
          sha256: changed.composite,
        },
        answers: [tampered],
        sealed: { keyWrap: changed.keyWrap, ...owner },
      },
    ]);
    expect(await fillFromCloud(userId, () => undefined)).toMatchObject({
      kept: 1,
      failed: 1,
      state: 'done',
    });
    // Both are on their way at once, so either may be asked for first: each once, never again.
    expect([...downloads].sort()).toEqual([goodId, changedId].sort());
    expect(await keptBytes(goodId)).toBe(sha256(plain));
    expect(await getVideo(goodId)).toMatchObject({
      byteSize: plain.length,
      chunkCount: Math.ceil(plain.length / MAX_CHUNK_BYTES),
    });
    expect(await getVideo(changedId)).toBeUndefined();
    expect(await chunksOf(changedId)).toBe(0);
  });

  it('asked again while it runs, runs once more after: a copy that appeared meanwhile comes too', async () => {
    const first = recording(50_000);
    const later = recording(60_000);
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowly = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          async start(controller) {
            await held;
            controller.enqueue(first.slice());
            controller.close();
          },
        }),
        { status: 200 },
      );
    const served: TServed[] = [{ entry: indexEntry(first, 2, 'First'), answers: [slowly] }];
    const downloads = serve(served);
    const firstRun = fillFromCloud(userId, () => undefined);
    await vi.waitFor(() => expect(downloads).toEqual([served[0]!.entry.id]));

    // A phone's video, sealed for the owner while the first run was under way: listed after it.
    served.unshift({ entry: indexEntry(later, 1, 'Later'), answers: [later] });
    const secondRun = fillFromCloud(userId, () => undefined);
    expect(fillFromCloud(userId, () => undefined)).toBe(secondRun);
    release();

    expect(await firstRun).toMatchObject({ total: 1, kept: 1, state: 'done' });
    expect(await secondRun).toMatchObject({ total: 2, kept: 2, state: 'done' });
    expect(downloads).toEqual([served[1]!.entry.id, served[0]!.entry.id]);
    expect(await keptBytes(served[0]!.entry.id)).toBe(sha256(later));
    expect(await keptBytes(served[1]!.entry.id)).toBe(sha256(first));
  });

  it('pauses while the connection is lost and goes on when it is back, each message once', async () => {
    const first = recording(20_000);
    const second = recording(30_000);
    const served = [
      { entry: indexEntry(first, 1, 'First'), answers: [first] },
      { entry: indexEntry(second, 2, 'Second'), answers: [second] },
    ];
    let isCut = false;
    const downloads = serve(served, (id) => {
      if (id !== served[1]!.entry.id || isCut) return;
      isCut = true;
      browser.onLine = false;
      throw new TypeError('Failed to fetch');
    });
    const seen: TFillProgress[] = [];
    const run = fillFromCloud(userId, (progress) => seen.push(progress));

    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ kept: 1, state: 'paused' }));
    browser.onLine = true;
    page.dispatchEvent(new Event('online'));

    expect(await run).toMatchObject({ total: 2, kept: 2, failed: 0, state: 'done' });
    expect(downloads).toEqual([served[0]!.entry.id, served[1]!.entry.id]);
    const ids = (await listVideos(userId)).map((video) => video.id);
    expect(ids).toEqual([served[0]!.entry.id, served[1]!.entry.id]);
    expect(await keptBytes(served[1]!.entry.id)).toBe(sha256(second));
  });

  it('writes a copy as it arrives, lists it only once all of it matched, and a cut copy is fetched again', async () => {
    const whole = recording(2 * MAX_CHUNK_BYTES + 1234);
    const item = {
      entry: indexEntry(whole, 1, 'Long'),
      answers: [cutOff(whole, MAX_CHUNK_BYTES + 10, true), whole],
    };
    const downloads = serve([item]);
    const seen: TFillProgress[] = [];
    const run = fillFromCloud(userId, (progress) => seen.push(progress));

    // The connection failed mid-copy while the browser thought it online: tried again soon.
    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ state: 'paused' }));
    expect(await getVideo(item.entry.id)).toBeUndefined();
    expect(await listVideos(userId)).toEqual([]);

    expect(await run).toMatchObject({ total: 1, kept: 1, failed: 0, state: 'done' });
    expect(downloads).toEqual([item.entry.id, item.entry.id]);
    expect(await keptBytes(item.entry.id)).toBe(sha256(whole));
    expect(await getVideo(item.entry.id)).toMatchObject({ chunkCount: 3, byteSize: whole.length });
    expect(await chunksOf(item.entry.id)).toBe(3);
  });

  it('writes arriving chunks together, lists nothing half written, and a mismatch leaves no chunks', async () => {
    const whole = recording(10 * MAX_CHUNK_BYTES + 77);
    const changed = whole.slice();
    changed[whole.length - 1] = (changed[whole.length - 1] ?? 0) ^ 1;
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Two chunks first, then the rest at once (many chunks waiting for one write), then the end.
    const arriving = (bytes: Uint8Array<ArrayBuffer>) => () =>
      new Response(
        new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(bytes.slice(0, 2 * MAX_CHUNK_BYTES));
            await held;
            controller.enqueue(bytes.slice(2 * MAX_CHUNK_BYTES));
            controller.close();
          },
        }),
        { status: 200 },
      );
    const item = { entry: indexEntry(whole, 1, 'Changed'), answers: [arriving(changed)] };
    serve([item]);
    const writes = vi.spyOn(localDb.chunks, 'bulkPut');
    const run = fillFromCloud(userId, () => undefined);

    // Written as it arrives, yet not listed: its record waits for the whole copy to match.
    await vi.waitFor(async () => expect(await chunksOf(item.entry.id)).toBe(2));
    expect(await getVideo(item.entry.id)).toBeUndefined();
    expect(await listVideos(userId)).toEqual([]);
    release();

    expect(await run).toMatchObject({ total: 1, kept: 0, failed: 1, state: 'done' });
    const sizes = writes.mock.calls.map(([chunks]) => (chunks as unknown[]).length);
    expect(sizes.some((size) => size > 1)).toBe(true);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(8);
    writes.mockRestore();
    expect(await getVideo(item.entry.id)).toBeUndefined();
    expect(await chunksOf(item.entry.id)).toBe(0);
  });

  it('gives up a download that hangs once the connection goes, and goes on when it is back', async () => {
    const whole = recording(MAX_CHUNK_BYTES + 99);
    const item = {
      entry: indexEntry(whole, 1, 'Hung'),
      answers: [cutOff(whole, 1000, false), whole],
    };
    const downloads = serve([item]);
    const seen: TFillProgress[] = [];
    const run = fillFromCloud(userId, (progress) => seen.push(progress));

    await vi.waitFor(() => expect(downloads).toHaveLength(1));
    browser.onLine = false;
    page.dispatchEvent(new Event('offline'));
    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ kept: 0, state: 'paused' }));
    browser.onLine = true;
    page.dispatchEvent(new Event('online'));

    expect(await run).toMatchObject({ total: 1, kept: 1, state: 'done' });
    expect(await keptBytes(item.entry.id)).toBe(sha256(whole));
  });
});
