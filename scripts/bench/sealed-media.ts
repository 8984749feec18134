// The video the sealed-against-plain benchmark sends and plays: a real, playable WebM (VP8, as the
// app's recorder makes) that Chromium's MediaRecorder records from a canvas (made once per size, kept in .tmp/), put into an
// owner's library in the page as the app keeps a saved recording (src/web/lib/videos/local-store.ts).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { root } from '../bench-support';
import type { TBarePage } from './bare-chromium';
import { addSeekIndex } from '../../src/web/lib/videos/webm-seek-index';

/**
 * High enough that 100 MB takes about 70 s to record. At 1280×720 the encoder fell behind on the
 * busy two-core machine (1.5 Mbit/s reached); at 640×360 it keeps up.
 */
const BITS_PER_SECOND = 12_000_000;
const WIDTH = 640;
const HEIGHT = 360;
/** The app keeps a video as rows of at most 4 MiB (MAX_CHUNK_BYTES). */
const CHUNK_BYTES = 4 * 1024 * 1024;

export interface TBenchVideo {
  file: string;
  bytes: number;
  durationMs: number;
}

/**
 * Records a canvas of moving coarse noise (which no encoder can squeeze below the bitrate asked
 * for) until the recording holds `targetBytes`, then gives it a duration as the app's own
 * repairer does after a recording (fix-webm-duration), so it can seek.
 */
async function recordInPage(page: Page, targetBytes: number): Promise<number> {
  const repairer = readFileSync(
    path.join(root, 'node_modules/fix-webm-duration/fix-webm-duration.js'),
    'utf8',
  );
  // tsx names functions with a helper the page does not have; the evaluated code needs it.
  await page.evaluate('globalThis.__name = (target) => target;');
  await page.evaluate(repairer);
  return page.evaluate(
    async ({ targetBytes, bitsPerSecond, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d')!;
      const small = document.createElement('canvas');
      small.width = 320;
      small.height = 180;
      const smallContext = small.getContext('2d')!;
      const noise = new ImageData(320, 180);
      let frame = 0;
      const draw = () => {
        for (let at = 0; at < noise.data.length; at += 65_536) {
          crypto.getRandomValues(noise.data.subarray(at, at + 65_536));
        }
        for (let at = 3; at < noise.data.length; at += 4) noise.data[at] = 255;
        smallContext.putImageData(noise, 0, 0);
        context.imageSmoothingEnabled = false;
        context.drawImage(small, 0, 0, width, height);
        context.fillStyle = '#fff';
        context.font = '64px sans-serif';
        context.fillText(String(frame++), 40, 100);
      };
      draw();
      const timer = setInterval(draw, 1000 / 30);
      const recorder = new MediaRecorder(canvas.captureStream(30), {
        mimeType: 'video/webm;codecs=vp8',
        videoBitsPerSecond: bitsPerSecond,
      });
      const parts: Blob[] = [];
      let size = 0;
      const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
      recorder.ondataavailable = (event) => {
        parts.push(event.data);
        size += event.data.size;
        if (size >= targetBytes && recorder.state === 'recording') recorder.stop();
      };
      const started = performance.now();
      recorder.start(1000);
      await stopped;
      const durationMs = Math.round(performance.now() - started);
      clearInterval(timer);
      type TRepair = (blob: Blob, ms: number, options: { logger: false }) => Promise<Blob>;
      const repair = (window as unknown as { ysFixWebmDuration: TRepair }).ysFixWebmDuration;
      const fixed = await repair(new Blob(parts, { type: 'video/webm' }), durationMs, {
        logger: false,
      });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(fixed);
      link.download = 'bench.webm';
      document.body.append(link);
      link.click();
      return durationMs;
    },
    { targetBytes, bitsPerSecond: BITS_PER_SECOND, width: WIDTH, height: HEIGHT },
  );
}

/**
 * The benchmark's video of at least `targetBytes`, recorded on the first run and kept in .tmp/,
 * then given a seek index as the app gives every recording it saves.
 */
export async function benchVideo(context: BrowserContext, targetBytes: number) {
  const recorded = await recordedVideo(context, targetBytes);
  const file = recorded.file.replace(/\.webm$/, '-indexed.webm');
  if (!existsSync(file)) {
    const blob = new Blob([readFileSync(recorded.file)], { type: 'video/webm' });
    writeFileSync(file, Buffer.from(await (await addSeekIndex(blob)).arrayBuffer()));
  }
  return { ...recorded, file, bytes: statSync(file).size } satisfies TBenchVideo;
}

async function recordedVideo(context: BrowserContext, targetBytes: number) {
  const directory = path.join(root, '.tmp');
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `bench-sealed-${Math.round(targetBytes / 1024 / 1024)}mb.webm`);
  const about = `${file}.json`;
  if (existsSync(file) && existsSync(about)) {
    const { durationMs } = JSON.parse(readFileSync(about, 'utf8')) as { durationMs: number };
    return { file, bytes: statSync(file).size, durationMs } satisfies TBenchVideo;
  }
  console.log(`  recording a ${Math.round(targetBytes / 1024 / 1024)} MB WebM into ${file}`);
  const page = await context.newPage();
  try {
    const download = page.waitForEvent('download', { timeout: 15 * 60_000 });
    const durationMs = await recordInPage(page, targetBytes);
    await (await download).saveAs(file);
    writeFileSync(about, JSON.stringify({ durationMs }));
    return { file, bytes: statSync(file).size, durationMs } satisfies TBenchVideo;
  } finally {
    await page.close();
  }
}

/**
 * Puts the video into the owner's local library as a saved recording the server has not indexed
 * yet: 4 MiB chunk rows and the video row, in one transaction (the sync never sees half of it).
 * The file reaches the page through a file input, as a person's choice would: a File read from
 * disk, never copied through the DevTools connection.
 */
export async function putInLibrary(
  page: Pick<TBarePage, 'evaluate' | 'setInputFiles'>,
  video: TBenchVideo,
  row: { id: string; title: string; creatorId: number; recipientId: number },
): Promise<void> {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-video-input';
    input.hidden = true;
    document.body.append(input);
  });
  await page.setInputFiles('#bench-video-input', video.file);
  await page.evaluate(
    async ({ row, durationMs, chunkBytes }) => {
      const input = document.querySelector<HTMLInputElement>('#bench-video-input')!;
      const file = input.files![0]!;
      const settle = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const db = await settle(indexedDB.open('memento-videos'));
      const chunkCount = Math.ceil(file.size / chunkBytes);
      const tx = db.transaction(['chunks', 'videos'], 'readwrite');
      for (let index = 0; index < chunkCount; index += 1) {
        const data = file.slice(index * chunkBytes, (index + 1) * chunkBytes, 'video/webm');
        tx.objectStore('chunks').put({ videoId: row.id, index, data });
      }
      tx.objectStore('videos').put({
        ...row,
        promptId: null,
        mimeType: 'video/webm',
        byteSize: file.size,
        durationMs,
        chunkCount,
        createdAt: new Date().toISOString(),
        syncStatus: 'local_only',
        indexedAt: null,
      });
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
      db.close();
      input.remove();
    },
    { row, durationMs: video.durationMs, chunkBytes: CHUNK_BYTES },
  );
}

/** The state of a video's row in the page's library, or null when there is none. */
export function libraryRow(page: Page, videoId: string) {
  return page.evaluate(async (videoId) => {
    const settle = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const db = await settle(indexedDB.open('memento-videos'));
    const row = (await settle(db.transaction('videos').objectStore('videos').get(videoId))) as
      { syncStatus: string; chunkCount: number } | undefined;
    db.close();
    return row ? { syncStatus: row.syncStatus, chunkCount: row.chunkCount } : null;
  }, videoId);
}

/** Removes the local copy (its row and chunks), so the player must use the cloud copy. */
export function removeFromLibrary(page: Page, videoId: string): Promise<void> {
  return page.evaluate(async (videoId) => {
    const open = indexedDB.open('memento-videos');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction(['chunks', 'videos'], 'readwrite');
    tx.objectStore('chunks').delete(IDBKeyRange.bound([videoId, 0], [videoId, Infinity]));
    tx.objectStore('videos').delete(videoId);
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, videoId);
}
