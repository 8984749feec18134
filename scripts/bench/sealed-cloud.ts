// bench:cloud's sealed part: what enhanced encryption costs against plain, in the same run. Two
// owners on a paid plan, each in a Chromium of their own (a profile on disk, as a visitor's), one
// with enhanced encryption on. The same real WebM (scripts/bench/sealed-media.ts) goes into each
// one's library, the app's sync sends it (asked as the app asks after a save), and the time to
// 'synced' is taken, each profile opened meanwhile in a bare Chromium (bare-chromium.ts), with no
// inspector to copy the bodies. Then, the local copy gone, the player opens the cloud copy: the
// time to its first decoded frame and to a frame after seeking to 80 %. Plain and sealed take
// turns, round after round; medians are compared. The JS heap and ArrayBuffers of the page and of
// its service worker, and the browser's resident memory, are sampled meanwhile (peaks above idle).
//
// BENCH_FILE_MB (default 100) sets the video's size; BENCH_SEALED_ROUNDS (default 3) the rounds.
// The app's service worker runs, as in a visitor's browser: a sealed message streams through it.
// BENCH_SEALED_PLAYBACK=whole blocks the worker while playing (as the browser tests do; a bare
// Chromium cannot block it, so it runs while sending), and a sealed message is opened whole,
// the app's way without one (a first visit, a shift-reload). BENCH_TRACE=1 prints each upload's
// busiest threads and what the busiest one ran (bare-chromium.ts); BENCH_PAGE_LOG=1 what the
// page logs (marks in a private build).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { buildServerUnlessCurrent } from '../build-server.mjs';
import { buildWebUnlessCurrent } from '../build-web.mjs';
import { median, startServer, stopServer, waitForHealth } from '../bench-support';
import { type TMemoryPeaks, withMemoryPeaks } from './browser-memory';
import { benchVideo, libraryRow, removeFromLibrary, type TBenchVideo } from './sealed-media';
import { inTurn, timeUploads, type TKind } from './sealed-uploads';
import {
  makePremium,
  openDashboard,
  signUpInPage,
  turnOnEncryption,
  type TOwner,
} from './sealed-owners';

const FILE_BYTES = Number(process.env.BENCH_FILE_MB ?? 100) * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_SEALED_ROUNDS ?? 3);
const WITH_WORKER = process.env.BENCH_SEALED_PLAYBACK !== 'whole';
const port = 5900 + (process.pid % 100);
const base = `http://127.0.0.1:${port}`;

interface TDevice {
  kind: TKind;
  /** Playwright's, for signing up and playing; closed while the uploads are timed. */
  context: BrowserContext;
  page: Page;
  profileDir: string;
  owner: TOwner;
}

interface TPlayResult {
  firstFrame: number;
  seek: number;
  /** Where the player read the cloud copy from: the server, an opened Blob, the worker. */
  source: string;
  peaks: TMemoryPeaks;
}

async function openContext(profileDir: string) {
  // A profile on disk: an off-the-record one keeps IndexedDB and Blobs in memory.
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    serviceWorkers: WITH_WORKER ? 'allow' : 'block',
    viewport: { width: 1280, height: 800 },
  });
  // tsx names functions with a helper the page does not have; the evaluated code needs it.
  await context.addInitScript('globalThis.__name = (target) => target;');
  context.setDefaultTimeout(120_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

async function launch(kind: TKind): Promise<Omit<TDevice, 'owner'>> {
  const profileDir = mkdtempSync(path.join(os.tmpdir(), `bench-sealed-${kind}-`));
  return { kind, profileDir, ...(await openContext(profileDir)) };
}

/** With the worker allowed, the dashboard is opened until the worker controls it. */
async function openControlledDashboard(page: Page): Promise<void> {
  await openDashboard(page, base);
  if (!WITH_WORKER) return;
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await openDashboard(page, base);
  }
}

/**
 * Clicks 'Play' on the message and times, in the page, the first decoded frame ('loadeddata')
 * and, from the moment it seeks to 80 %, the frame there ('seeked' with a current frame).
 */
function playInPage(page: Page, title: string) {
  return page.evaluate(async (title) => {
    const button = [...document.querySelectorAll('button')].find(
      (candidate) => candidate.textContent?.trim() === `Play ${title}`,
    );
    if (!button) throw new Error(`no Play button for ${title}`);
    const item = button.closest('li')!;
    const started = performance.now();
    button.click();
    const video = await new Promise<HTMLVideoElement>((resolve, reject) => {
      const look = () => {
        const found = item.querySelector('video');
        const alert = item.querySelector('[role=alert]');
        if (found) resolve(found);
        else if (alert) reject(new Error(`the player said: ${alert.textContent}`));
        else return false;
        observer.disconnect();
        return true;
      };
      const observer = new MutationObserver(look);
      if (!look()) observer.observe(item, { childList: true, subtree: true });
    });
    const event = (name: string, isDone: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        if (isDone()) return resolve();
        const timer = setTimeout(() => reject(new Error(`no ${name} in 10 min`)), 600_000);
        video.addEventListener(name, () => (clearTimeout(timer), resolve()), { once: true });
        video.addEventListener('error', () => reject(new Error(`video error ${name}`)), {
          once: true,
        });
      });
    await event('loadeddata', () => video.readyState >= 2);
    const firstFrame = (performance.now() - started) / 1000;
    await event('durationchange', () => Number.isFinite(video.duration));
    const seekStarted = performance.now();
    video.currentTime = video.duration * 0.8;
    await event('seeked', () => false);
    await event('loadeddata', () => video.readyState >= 2);
    const seek = (performance.now() - seekStarted) / 1000;
    const source = video.src.startsWith('blob:')
      ? 'opened whole (Blob)'
      : new URL(video.src).pathname.startsWith('/api/')
        ? 'server (Range)'
        : `service worker (${new URL(video.src).pathname.split('/')[1]})`;
    return { firstFrame, seek, source };
  }, title);
}

/** The player opened on the cloud copy once, with no local copy and a cold HTTP cache. */
async function timePlayback(device: TDevice, title: string, videoId: string) {
  const { page } = device;
  if (await libraryRow(page, videoId)) throw new Error(`${title}: a local copy came back`);
  const cdp = await device.context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  const { value, peaks } = await withMemoryPeaks(device, device.profileDir, () =>
    playInPage(page, title),
  );
  await page.getByRole('button', { name: `Close ${title}`, exact: true }).click();
  // The owner's device keeps what it played (but what the worker streamed); the next round
  // starts once that is stored, and without it.
  const deadline = Date.now() + 10 * 60_000;
  const isKept = !value.source.startsWith('service worker');
  while (isKept && ((await libraryRow(page, videoId))?.chunkCount ?? 0) === 0) {
    if (Date.now() > deadline) throw new Error(`${title}: the played copy was never kept`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await removeFromLibrary(page, videoId);
  return { ...value, peaks } satisfies TPlayResult;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const worst = (peaks: TMemoryPeaks[]) => {
  const top = (key: keyof TMemoryPeaks) => mb(Math.max(...peaks.map((peak) => peak[key])));
  return `page JS heap ${top('heap')}, ArrayBuffers ${top('buffers')}; service worker ${top('workerHeap')}, ${top('workerBuffers')}; Chromium resident ${top('resident')} (renderer ${top('renderers')}, browser process ${top('browser')})`;
};

function compare(what: string, goal: number, plain: number[], sealed: number[]) {
  const ratio = median(sealed) / median(plain);
  console.log(
    `${what} (median of ${plain.length}): plain ${median(plain).toFixed(2)} s, sealed ${median(sealed).toFixed(2)} s = ${ratio.toFixed(2)}x (goal <= ${goal}x) [plain ${plain.map((s) => s.toFixed(1)).join(', ')}; sealed ${sealed.map((s) => s.toFixed(1)).join(', ')}]`,
  );
}

async function measure(devices: TDevice[], video: TBenchVideo) {
  for (const device of devices) await device.context.close();
  const { uploads, lastIds } = await timeUploads(devices, video, {
    base,
    rounds: ROUNDS,
    withWorker: WITH_WORKER,
  });
  for (const device of devices) Object.assign(device, await openContext(device.profileDir));
  for (const device of devices) {
    await openControlledDashboard(device.page);
    // The dashboard brings down any cloud copy this device lacks (each visit): its run ends
    // before the local copy goes, or the player would find it back.
    await device.page.waitForLoadState('networkidle');
    await removeFromLibrary(device.page, lastIds.get(device.kind)!);
  }
  const plays = new Map<TKind, TPlayResult[]>([
    ['plain', []],
    ['sealed', []],
  ]);
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const device of inTurn(devices, round)) {
      const title = `Bench ${device.kind} ${ROUNDS}`;
      const result = await timePlayback(device, title, lastIds.get(device.kind)!);
      plays.get(device.kind)!.push(result);
      console.log(
        `  play ${device.kind} round ${round}: first frame ${result.firstFrame.toFixed(2)} s, seek ${result.seek.toFixed(2)} s, from ${result.source}`,
      );
    }
  }
  return { uploads, plays };
}

function report(video: TBenchVideo, results: Awaited<ReturnType<typeof measure>>) {
  const { uploads, plays } = results;
  const seconds = (kind: TKind) => uploads.get(kind)!.map((result) => result.seconds);
  const played = (kind: TKind) => plays.get(kind)!;
  console.log(
    `sealed against plain, a ${mb(video.bytes)} WebM of ${(video.durationMs / 1000).toFixed(0)} s, ${ROUNDS} rounds in turn:`,
  );
  compare("upload to 'synced'", 1.15, seconds('plain'), seconds('sealed'));
  for (const kind of ['plain', 'sealed'] as const) {
    console.log(
      `  memory while sending ${kind}, peak above idle: ${worst(uploads.get(kind)!.map((r) => r.peaks))}`,
    );
  }
  compare(
    'first frame',
    1.2,
    played('plain').map((r) => r.firstFrame),
    played('sealed').map((r) => r.firstFrame),
  );
  compare(
    'seek to 80 %',
    1.2,
    played('plain').map((r) => r.seek),
    played('sealed').map((r) => r.seek),
  );
  for (const kind of ['plain', 'sealed'] as const) {
    const sources = [...new Set(played(kind).map((r) => r.source))].join(', ');
    console.log(
      `  memory while playing ${kind} (from ${sources}), peak above idle: ${worst(played(kind).map((r) => r.peaks))}`,
    );
  }
}

export async function runSealedCloud(): Promise<void> {
  await buildServerUnlessCurrent();
  await buildWebUnlessCurrent();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-sealed-cloud-'));
  const start = () =>
    startServer({
      port,
      dataDir,
      // An address nobody registers with is the admin's: the owners are ordinary paying owners.
      env: { ENHANCED_ENCRYPTION: 'true', ADMIN_EMAIL: 'admin@bench.invalid' },
    });
  let server: ChildProcess = start();
  const launched: Omit<TDevice, 'owner'>[] = [];
  try {
    launched.push(await launch('plain'), await launch('sealed'));
    await waitForHealth(base);
    const video = await benchVideo(launched[0]!.context, FILE_BYTES);
    const devices: TDevice[] = [];
    for (const device of launched) {
      const owner = await signUpInPage(device.page, base, `bench${device.kind}${process.pid}`);
      // The same object: its context is opened again after the uploads, and closed at the end.
      devices.push(Object.assign(device, { owner }));
    }
    server = await makePremium(
      server,
      dataDir,
      devices.map((device) => device.owner.username),
      async () => {
        const restarted = start();
        await waitForHealth(base);
        return restarted;
      },
    );
    await turnOnEncryption(devices[1]!.page, base);
    for (const device of devices) await openControlledDashboard(device.page);
    report(video, await measure(devices, video));
  } finally {
    for (const device of launched) {
      await device.context.close().catch(() => undefined);
      rmSync(device.profileDir, { recursive: true, force: true });
    }
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
