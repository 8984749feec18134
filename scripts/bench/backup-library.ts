// bench:backup's synthetic library in the page's IndexedDB: writing it, and the copies of the same
// bytes with no zip that the backup and the restore are held against. Each runs in the page.
import type { Page } from '@playwright/test';

/**
 * Writes the synthetic library into the app's IndexedDB, video by video. One video's bytes are
 * written once to a file in the private file system, and every chunk row is a slice of that file:
 * the browser copies such a Blob from disk, where thousands of 4 MiB Blobs made in the page
 * filled its blob store ("Failed to write blobs").
 */
export async function seedLibrary(
  page: Page,
  options: { creatorId: number; videoCount: number; videoBytes: number; chunkBytes: number },
) {
  await page.evaluate(async ({ creatorId, videoCount, videoBytes, chunkBytes }) => {
    const source = new Uint8Array(await (await fetch('/media/banner.webm')).arrayBuffer());
    const chunk = new Uint8Array(chunkBytes);
    for (let at = 0; at < chunkBytes; at += source.length) {
      chunk.set(source.subarray(0, Math.min(source.length, chunkBytes - at)), at);
    }
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle('seed-video.bin', { create: true });
    const writable = await handle.createWritable();
    for (let at = 0; at < videoBytes; at += chunkBytes) {
      await writable.write(chunk.subarray(0, Math.min(chunkBytes, videoBytes - at)));
    }
    await writable.close();
    const video = await handle.getFile();

    const settle = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const db = await settle(indexedDB.open('memento-videos'));
    const recipientId = Number(localStorage.getItem('benchRecipientId'));
    const chunkCount = Math.ceil(videoBytes / chunkBytes);
    for (let index = 0; index < videoCount; index += 1) {
      const id = crypto.randomUUID();
      const tx = db.transaction(['chunks', 'videos'], 'readwrite');
      for (let part = 0; part < chunkCount; part += 1) {
        const slice = video.slice(part * chunkBytes, (part + 1) * chunkBytes);
        // Each video differs in its first bytes, so no two hash alike.
        const data = part === 0 ? new Blob([String(index), slice]) : slice;
        tx.objectStore('chunks').put({ videoId: id, index: part, data });
      }
      tx.objectStore('videos').put({
        id,
        creatorId,
        recipientId,
        title: `Bench message ${index + 1}`,
        promptId: null,
        mimeType: 'video/webm',
        byteSize: videoBytes + String(index).length,
        durationMs: 600_000,
        chunkCount,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
        syncStatus: 'local_only',
        indexedAt: new Date().toISOString(),
      });
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    }
    db.close();
    await root.removeEntry('seed-video.bin');
  }, options);
}

/** The same bytes, IndexedDB → a file in the private file system, with no zip: the yardstick. */
export function copyLibraryToFile(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const settle = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const started = performance.now();
    const db = await settle(indexedDB.open('memento-videos'));
    const videos = (await settle(db.transaction('videos').objectStore('videos').getAll())) as {
      id: string;
    }[];
    const root = await navigator.storage.getDirectory();
    const writable = await (
      await root.getFileHandle('baseline.bin', { create: true })
    ).createWritable();
    for (const video of videos) {
      const chunks = (await settle(
        db
          .transaction('chunks')
          .objectStore('chunks')
          .getAll(IDBKeyRange.bound([video.id, 0], [video.id, Infinity])),
      )) as { data: Blob }[];
      for (const chunk of chunks) await writable.write(chunk.data);
    }
    await writable.close();
    db.close();
    const seconds = (performance.now() - started) / 1000;
    await root.removeEntry('baseline.bin');
    return seconds;
  });
}

/** The reverse yardstick: a file's bytes into IndexedDB as 4 MiB chunk rows, then removed. */
export function copyFileToLibrary(
  page: Page,
  fileName: string,
  chunkBytes: number,
): Promise<number> {
  return page.evaluate(
    async ({ fileName, chunkBytes }) => {
      const settle = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const root = await navigator.storage.getDirectory();
      const file = await (await root.getFileHandle(fileName)).getFile();
      const started = performance.now();
      const db = await settle(indexedDB.open('memento-videos'));
      const videoId = 'baseline';
      for (let at = 0, index = 0; at < file.size; at += chunkBytes * 25) {
        const tx = db.transaction('chunks', 'readwrite');
        for (let part = at; part < Math.min(file.size, at + chunkBytes * 25); part += chunkBytes) {
          const data = file.slice(part, part + chunkBytes);
          tx.objectStore('chunks').put({ videoId, index: index++, data });
        }
        await new Promise((resolve) => (tx.oncomplete = resolve));
      }
      const seconds = (performance.now() - started) / 1000;
      const tx = db.transaction('chunks', 'readwrite');
      tx.objectStore('chunks').delete(IDBKeyRange.bound([videoId, 0], [videoId, Infinity]));
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
      return seconds;
    },
    { fileName, chunkBytes },
  );
}
