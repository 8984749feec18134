// The two tablets of bench:transfer: each a Chromium of its own on a profile on disk (a tablet's
// library is on disk, and an off-the-record profile keeps IndexedDB and Blobs in memory), the old
// one with a library written straight into its IndexedDB a chunk at a time, never whole in memory.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { readCode, waitForMail } from '../../tests/e2e/support/outbox';
import { PASSWORD, type TOwner } from './sealed-owners';

export interface TDevice {
  context: BrowserContext;
  page: Page;
  profileDir: string;
}

export async function launchDevice(name: string): Promise<TDevice> {
  const profileDir = mkdtempSync(path.join(os.tmpdir(), `bench-transfer-${name}-`));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  // tsx names functions with a helper the page does not have; the evaluated code needs it.
  await context.addInitScript('globalThis.__name = (target) => target;');
  context.setDefaultTimeout(120_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page, profileDir };
}

/**
 * Writes `count` messages of `bytes` each into the app's library (4 MiB chunk rows, as the app
 * keeps a recording), each chunk made of fresh random bytes and written on its own, so the page
 * never holds more than one chunk.
 */
export async function writeLibrary(
  page: Page,
  owner: TOwner,
  input: { count: number; bytes: number },
): Promise<void> {
  // The app makes its library's stores as the dashboard opens it.
  await page.goto(new URL('/', page.url()).toString());
  await page.getByRole('heading', { name: 'Welcome, Bench' }).waitFor({ timeout: 60_000 });
  await page.waitForFunction(async () =>
    (await indexedDB.databases()).some((db) => db.name === 'memento-videos'),
  );
  await page.evaluate(
    async ({ owner, count, bytes }) => {
      const CHUNK = 4 * 1024 * 1024;
      const settle = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const finished = (tx: IDBTransaction) =>
        new Promise((resolve, reject) => {
          tx.oncomplete = resolve;
          tx.onerror = () => reject(tx.error);
          tx.onabort = () => reject(tx.error);
        });
      const db = await settle(indexedDB.open('memento-videos'));
      for (let video = 0; video < count; video += 1) {
        const id = crypto.randomUUID();
        const chunkCount = Math.ceil(bytes / CHUNK);
        for (let index = 0; index < chunkCount; index += 1) {
          const part = new Uint8Array(Math.min(CHUNK, bytes - index * CHUNK));
          for (let at = 0; at < part.length; at += 65_536) {
            crypto.getRandomValues(part.subarray(at, at + 65_536));
          }
          const tx = db.transaction('chunks', 'readwrite');
          tx.objectStore('chunks').put({
            videoId: id,
            index,
            data: new Blob([part], { type: 'video/webm' }),
          });
          await finished(tx);
        }
        const tx = db.transaction('videos', 'readwrite');
        tx.objectStore('videos').put({
          id,
          creatorId: owner.userId,
          recipientId: owner.recipientId,
          title: `Bench message ${video + 1}`,
          promptId: null,
          mimeType: 'video/webm',
          byteSize: bytes,
          durationMs: 60_000,
          chunkCount,
          createdAt: new Date(Date.now() - video * 1000).toISOString(),
          syncStatus: 'local_only',
          indexedAt: null,
        });
        await finished(tx);
      }
      db.close();
    },
    { owner, ...input },
  );
}

/** The new tablet signs in and moves the account to itself with the emailed code, as a person. */
export async function moveAccountHere(
  page: Page,
  base: string,
  owner: TOwner,
  dataDir: string,
): Promise<void> {
  await page.goto(`${base}/auth`);
  await page.getByLabel('Username', { exact: true }).fill(owner.username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const denied = page.getByRole('alert', { name: 'Device Access Denied' });
  await denied.getByRole('button', { name: 'Use this device instead' }).click();
  const mail = await waitForMail(`${owner.username}@example.test`, /code to use a new device/, {
    dataDir,
    timeoutMs: 60_000,
  });
  await denied.getByLabel('Code from the email', { exact: true }).fill(readCode(mail));
  await denied.getByRole('button', { name: 'Move my account here' }).click();
  await page.getByRole('heading', { name: 'Welcome, Bench' }).waitFor();
}

/** How many bytes every message in a page's library holds together. */
export function libraryBytes(page: Page): Promise<{ count: number; bytes: number }> {
  return page.evaluate(async () => {
    const open = indexedDB.open('memento-videos');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const request = db.transaction('videos').objectStore('videos').getAll();
    const rows = await new Promise<{ byteSize: number }[]>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result as { byteSize: number }[]);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return { count: rows.length, bytes: rows.reduce((sum, row) => sum + row.byteSize, 0) };
  });
}

/** The chunk size and buffering of the app's transfer (src/web/features/transfer). */
export interface TPacing {
  chunkBytes: number;
  highWaterBytes: number;
  lowWaterBytes: number;
}

/**
 * The baseline: a bare RTCPeerConnection between the same two pages (the offer and answer handed
 * across by this script, whole, as the app does), sending `totalBytes` in chunks of the app's size
 * with the app's buffering, counted and dropped on arrival. Answers bytes per second, from the
 * first send to the last byte's arrival (timed here, around both pages).
 */
export async function rawChannelThroughput(
  sender: Page,
  receiver: Page,
  totalBytes: number,
  pacing: TPacing,
): Promise<number> {
  const gatherScript = `globalThis.__gathered = (pc) => new Promise((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve(JSON.stringify(pc.localDescription));
      pc.addEventListener('icegatheringstatechange', () => {
        if (pc.iceGatheringState === 'complete') resolve(JSON.stringify(pc.localDescription));
      });
    });`;
  await sender.evaluate(gatherScript);
  await receiver.evaluate(gatherScript);
  type TWindow = Window & Record<string, unknown>;
  const offer = await receiver.evaluate(async () => {
    const w = window as unknown as TWindow;
    const pc = new RTCPeerConnection();
    const channel = pc.createDataChannel('raw', { ordered: true });
    channel.binaryType = 'arraybuffer';
    w.__rawPc = pc;
    w.__rawChannel = channel;
    await pc.setLocalDescription(await pc.createOffer());
    return (w.__gathered as (pc: RTCPeerConnection) => Promise<string>)(pc);
  });
  const answer = await sender.evaluate(async (offer) => {
    const w = window as unknown as TWindow;
    const pc = new RTCPeerConnection();
    w.__rawPc = pc;
    w.__rawChannel = new Promise<RTCDataChannel>((resolve) =>
      pc.addEventListener('datachannel', (event) => resolve(event.channel)),
    );
    await pc.setRemoteDescription(JSON.parse(offer) as RTCSessionDescriptionInit);
    await pc.setLocalDescription(await pc.createAnswer());
    return (w.__gathered as (pc: RTCPeerConnection) => Promise<string>)(pc);
  }, offer);
  await receiver.evaluate(
    async ({ answer, totalBytes }) => {
      const w = window as unknown as TWindow;
      const pc = w.__rawPc as RTCPeerConnection;
      const channel = w.__rawChannel as RTCDataChannel;
      await pc.setRemoteDescription(JSON.parse(answer) as RTCSessionDescriptionInit);
      if (channel.readyState !== 'open') {
        await new Promise((resolve) => channel.addEventListener('open', resolve, { once: true }));
      }
      let received = 0;
      w.__rawDone = new Promise<void>((resolve) => {
        channel.addEventListener('message', (event: MessageEvent<ArrayBuffer>) => {
          received += event.data.byteLength;
          if (received >= totalBytes) resolve();
        });
      });
    },
    { answer, totalBytes },
  );
  const started = performance.now();
  const sending = sender.evaluate(
    async ({ totalBytes, pacing }) => {
      const w = window as unknown as TWindow;
      const channel = await (w.__rawChannel as Promise<RTCDataChannel>);
      if (channel.readyState !== 'open') {
        await new Promise((resolve) => channel.addEventListener('open', resolve, { once: true }));
      }
      const chunk = new Uint8Array(pacing.chunkBytes);
      crypto.getRandomValues(chunk.subarray(0, 65_536));
      for (let sent = 0; sent < totalBytes; sent += pacing.chunkBytes) {
        if (channel.bufferedAmount > pacing.highWaterBytes) {
          channel.bufferedAmountLowThreshold = pacing.lowWaterBytes;
          await new Promise((resolve) =>
            channel.addEventListener('bufferedamountlow', resolve, { once: true }),
          );
        }
        channel.send(chunk.subarray(0, Math.min(pacing.chunkBytes, totalBytes - sent)));
      }
    },
    { totalBytes, pacing },
  );
  await receiver.evaluate(() => (window as unknown as TWindow).__rawDone as Promise<void>);
  const seconds = (performance.now() - started) / 1000;
  await sending;
  for (const page of [sender, receiver]) {
    await page.evaluate(() =>
      ((window as unknown as TWindow).__rawPc as RTCPeerConnection).close(),
    );
  }
  return totalBytes / seconds;
}
