// bench:cloud's fill part: a paying owner's new tablet bringing every cloud copy down by itself
// (src/web/lib/videos/cloud-fill.ts) against plain fetch of the same objects in the same page, in
// the same run (goal: at least 0.8x). The old tablet's library is written into its IndexedDB and
// sent by the app's own sync; the owner then moves the account to the new tablet with the emailed
// code, and the dashboard fills it. The time runs from the fill's first request for a copy to
// 'All N messages are on this device.', then every message kept is checked byte for byte
// against the cloud's checksum. That fill is driven by Playwright; the library is then emptied
// and the fill timed again in a bare Chromium (bare-chromium.ts), as a visitor's browser runs it,
// where plain fetch then asks for each copy's address and reads its bytes, one after another.
// Fill and plain fetch take turns, BENCH_FILL_ROUNDS (default 3) rounds; medians are compared
// (plain fetch alone moved by up to 2x between runs a minute apart on this 2-core machine).
//
// BENCH_FILL_MB (default 256) sets the library's size, BENCH_MESSAGE_MB (default 64) each
// message's; BENCH_TRACE=1 says what the busiest thread did during the bare fill and plain fetch,
// BENCH_PROFILE=1 which functions the page's main thread ran during the bare fill.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServerUnlessCurrent } from '../build-server.mjs';
import { buildWebUnlessCurrent } from '../build-web.mjs';
import { median, startServer, stopServer, waitForHealth } from '../bench-support';
import { launchBare, traced, type TBarePage } from './bare-chromium';
import { withMemoryPeaks, type TMemoryPeaks } from './browser-memory';
import { makePremium, openDashboard, signUpInPage } from './sealed-owners';
import { launchDevice, moveAccountHere, writeLibrary, type TDevice } from './transfer-devices';

const MB = 1024 * 1024;
const LIBRARY_MB = Number(process.env.BENCH_FILL_MB ?? 256);
const MESSAGE_MB = Number(process.env.BENCH_MESSAGE_MB ?? 64);
const ROUNDS = Number(process.env.BENCH_FILL_ROUNDS ?? 3);
const port = Number(process.env.BENCH_FILL_PORT ?? 5173);
const base = `http://127.0.0.1:${port}`;

/** A page to run the benchmark's own script in, driven by Playwright or bare. */
type TScripted = Pick<TBarePage, 'evaluate'>;

/** Asks the app to send what waits, until every message of the library is in the cloud. */
function sendAllToCloud(page: TScripted): Promise<number> {
  return page.evaluate(async () => {
    const read = () =>
      new Promise<{ syncStatus: string }[]>((resolve, reject) => {
        const open = indexedDB.open('memento-videos');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('videos').objectStore('videos').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result as { syncStatus: string }[]);
          };
          all.onerror = () => reject(all.error);
        };
      });
    const started = performance.now();
    for (let round = 0; ; round += 1) {
      if (round % 50 === 0) window.dispatchEvent(new Event('memento:sync-request'));
      const rows = await read();
      if (rows.every((row) => row.syncStatus === 'synced')) break;
      if (performance.now() - started > 30 * 60_000) throw new Error('the upload did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return (performance.now() - started) / 1000;
  });
}

/**
 * Plain fetch of every copy, one after another: its address, then its bytes; as a page fetches by
 * default (the browser's HTTP cache written as well), or with `cache: 'no-store'`, as the fill.
 */
function plainFetchAll(
  page: TScripted,
  cache: RequestCache = 'default',
): Promise<{ bytes: number; seconds: number }> {
  return page.evaluate(async (cache) => {
    const deviceId = localStorage.getItem('deviceId') ?? '';
    const headers = { 'X-Device-ID': deviceId, Accept: 'application/json' };
    const index = (await (await fetch('/api/videos', { headers })).json()) as { id: string }[];
    let bytes = 0;
    const started = performance.now();
    for (const entry of index) {
      const playback = (await (
        await fetch(`/api/videos/${entry.id}/playback`, { headers })
      ).json()) as { url: string };
      const body = await (
        await fetch(playback.url, { credentials: 'same-origin', cache })
      ).arrayBuffer();
      bytes += body.byteLength;
    }
    return { bytes, seconds: (performance.now() - started) / 1000 };
  }, cache);
}

/**
 * How many of the library's messages hold, chunk by chunk, exactly the bytes the cloud recorded
 * (their parts' composite SHA-256 against the index's): the fill is timed only if it kept what
 * it checked.
 */
function countKeptIntact(page: TScripted): Promise<{ intact: number; kept: number }> {
  return page.evaluate(async () => {
    const headers = { 'X-Device-ID': localStorage.getItem('deviceId') ?? '' };
    const index = (await (await fetch('/api/videos', { headers })).json()) as {
      id: string;
      sha256: string;
    }[];
    const settle = <R>(request: IDBRequest<R>) =>
      new Promise<R>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const db = await settle(indexedDB.open('memento-videos'));
    const videos = (await settle(db.transaction('videos').objectStore('videos').getAll())) as {
      id: string;
    }[];
    const hex = (digest: ArrayBuffer) =>
      Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
    let intact = 0;
    for (const video of videos) {
      const chunks = (await settle(
        db.transaction('chunks').objectStore('chunks').index('videoId').getAll(video.id),
      )) as { index: number; data: Blob }[];
      chunks.sort((a, b) => a.index - b.index);
      const copy = new Blob(chunks.map((chunk) => chunk.data));
      const part = 8 * 1024 * 1024;
      const digests: ArrayBuffer[] = [];
      for (let at = 0; at < copy.size || digests.length === 0; at += part) {
        digests.push(
          await crypto.subtle.digest('SHA-256', await copy.slice(at, at + part).arrayBuffer()),
        );
      }
      const joined = new Uint8Array(32 * digests.length);
      digests.forEach((digest, at) => joined.set(new Uint8Array(digest), at * 32));
      const composite = hex(await crypto.subtle.digest('SHA-256', joined));
      if (index.find((entry) => entry.id === video.id)?.sha256 === composite) intact += 1;
    }
    db.close();
    return { intact, kept: videos.length };
  });
}

interface TProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/**
 * `work`, with BENCH_PROFILE=1 profiled: the page's main thread's samples summed by function
 * (its own time), the top of them printed. Names are readable in a build made without minifying
 * (`npx vite build --minify false`, then a private build as bench-support.ts says).
 */
async function profiled<T>(page: TBarePage, work: () => Promise<T>): Promise<T> {
  if (!process.env.BENCH_PROFILE) return work();
  await page.send('Profiler.enable');
  await page.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.send('Profiler.start');
  const value = await work();
  const { profile } = (await page.send('Profiler.stop')) as {
    profile: { nodes: TProfileNode[]; startTime: number; endTime: number };
  };
  const samples = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const msEach = (profile.endTime - profile.startTime) / 1000 / Math.max(1, samples);
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + (node.hitCount ?? 0) * msEach);
  }
  console.log("  the page's main thread, own time by function:");
  for (const [name, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`    ${ms.toFixed(0)} ms ${name}`);
  }
  return value;
}

/** Removes every message from the page's library (rows and chunks). */
function emptyLibrary(page: TScripted): Promise<void> {
  return page.evaluate(async () => {
    const open = indexedDB.open('memento-videos');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction(['chunks', 'videos'], 'readwrite');
    tx.objectStore('chunks').clear();
    tx.objectStore('videos').clear();
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  });
}

/**
 * In the page, from the fill's first request for a copy (its resource timing) to the dashboard's
 * fill line saying every message is here, looked at every 20 ms (an observer of the whole page
 * ran on every change the fill made, and cost the page's thread time the fill needed).
 */
async function timeFillInPage(count: number): Promise<number> {
  const said = `All ${count} messages are on this device.`;
  for (const deadline = performance.now() + 30 * 60_000; ;) {
    const line = document.querySelector('[data-testid="cloud-fill"]');
    if (line?.textContent?.includes(said)) break;
    if (performance.now() > deadline) throw new Error('the fill did not end');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const done = performance.now();
  const first = performance
    .getEntriesByType('resource')
    .find((entry) => /\/api\/videos\/[^/]+\/playback$/.test(entry.name));
  if (!first) throw new Error('no copy was asked for');
  return (done - first.startTime) / 1000;
}

const rate = (bytesPerSecond: number) => `${(bytesPerSecond / MB).toFixed(0)} MB/s`;
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;
const describe = (peaks: TMemoryPeaks) =>
  `JS heap ${mb(peaks.heap)}, ArrayBuffers ${mb(peaks.buffers)}, renderers ${mb(peaks.renderers)}, ` +
  `browser process ${mb(peaks.browser)}`;

export async function runCloudFill(): Promise<void> {
  // BENCH_SERVER_ENTRY names a build made beforehand (see bench-support.ts).
  if (!process.env.BENCH_SERVER_ENTRY) {
    await buildServerUnlessCurrent();
    await buildWebUnlessCurrent();
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-cloud-fill-'));
  const start = () => startServer({ port, dataDir, env: { ADMIN_EMAIL: 'admin@bench.invalid' } });
  let server: ChildProcess = start();
  const devices: TDevice[] = [];
  try {
    devices.push(await launchDevice('fill-old'), await launchDevice('fill-new'));
    const [oldTablet, newTablet] = devices as [TDevice, TDevice];
    await waitForHealth(base);
    const owner = await signUpInPage(oldTablet.page, base, `benchfill${process.pid}`);
    server = await makePremium(server, dataDir, [owner.username], async () => {
      const restarted = start();
      await waitForHealth(base);
      return restarted;
    });
    const count = Math.max(1, Math.round(LIBRARY_MB / MESSAGE_MB));
    const bytes = Math.round((LIBRARY_MB * MB) / count);
    await writeLibrary(oldTablet.page, owner, { count, bytes });
    await openDashboard(oldTablet.page, base);
    const uploadSeconds = await sendAllToCloud(oldTablet.page);
    console.log(
      `new device fill: ${count} messages of ${mb(bytes)} in the cloud (sent in ${uploadSeconds.toFixed(0)} s)`,
    );

    let firstCopyAsked = 0;
    newTablet.page.on('request', (request) => {
      if (!firstCopyAsked && /\/api\/videos\/[^/]+\/playback$/.test(request.url())) {
        firstCopyAsked = performance.now();
      }
    });
    const filled = await withMemoryPeaks(newTablet, newTablet.profileDir, async () => {
      await moveAccountHere(newTablet.page, base, owner, dataDir);
      await newTablet.page
        .getByText(`All ${count} messages are on this device.`)
        .waitFor({ timeout: 30 * 60_000 });
      return (performance.now() - firstCopyAsked) / 1000;
    });
    const { intact, kept } = await countKeptIntact(newTablet.page);
    if (kept !== count || intact !== count) {
      throw new Error(`the fill kept ${kept} messages, ${intact} of them intact, of ${count}`);
    }
    const inspected = await plainFetchAll(newTablet.page);
    console.log(
      `  driven by Playwright (DevTools' network domain on): fill ${rate((count * bytes) / filled.value)} (${filled.value.toFixed(1)} s), plain fetch ${rate(inspected.bytes / inspected.seconds)}`,
    );
    console.log(`  new tablet while filling, peak above idle: ${describe(filled.peaks)}`);

    // Timed again as a visitor's browser runs it (bare-chromium.ts), round after round: the
    // library emptied and the new tablet's profile opened in a bare Chromium, whose dashboard
    // fills it again; then plain fetch of the same objects in the same page. Medians compared.
    await emptyLibrary(newTablet.page);
    await newTablet.context.close();
    const rounds: { fill: number; plain: number; uncached: number }[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const bare = await launchBare(
        newTablet.profileDir,
        `${base}/`,
        'performance.setResourceTimingBufferSize(100000);',
      );
      try {
        const visibility = await bare.evaluate(() => document.visibilityState);
        if (visibility !== 'visible') throw new Error(`the bare page is ${visibility}`);
        const seconds = await traced(bare, 'the fill', () =>
          profiled(bare, () => bare.evaluate(timeFillInPage, count)),
        );
        const again = await countKeptIntact(bare);
        if (again.kept !== count || again.intact !== count) {
          throw new Error(
            `the fill kept ${again.kept}, ${again.intact} of them intact, of ${count}`,
          );
        }
        const plain = await traced(bare, 'plain fetch', () => plainFetchAll(bare));
        const uncached = await plainFetchAll(bare, 'no-store');
        if (plain.bytes !== count * bytes || uncached.bytes !== count * bytes) {
          throw new Error('plain fetch fell short');
        }
        rounds.push({
          fill: (count * bytes) / seconds,
          plain: plain.bytes / plain.seconds,
          uncached: uncached.bytes / uncached.seconds,
        });
        await emptyLibrary(bare);
      } finally {
        await bare.close();
      }
    }
    const fill = median(rounds.map((round) => round.fill));
    const fetchRate = median(rounds.map((round) => round.plain));
    const uncachedRate = median(rounds.map((round) => round.uncached));
    const each = rounds.map((round) => `${rate(round.fill)} vs ${rate(round.plain)}`).join('; ');
    console.log(
      `  fill ${rate(fill)} vs plain fetch ${rate(fetchRate)} (medians of ${ROUNDS} rounds) = ${(fill / fetchRate).toFixed(2)}x (goal >= 0.8x) [${each}]`,
    );
    // The fill's own downloads skip the HTTP cache; plain fetch that does too, for comparison.
    console.log(
      `  plain fetch with cache: 'no-store' ${rate(uncachedRate)}: the fill is ${(fill / uncachedRate).toFixed(2)}x of it`,
    );
  } finally {
    for (const device of devices) {
      await device.context.close().catch(() => undefined);
      rmSync(device.profileDir, { recursive: true, force: true });
    }
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
