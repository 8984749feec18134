// bench:cloud's sealed part, its uploads: each owner's profile opened in a bare Chromium
// (bare-chromium.ts), where the app's sync sends the same video round after round, timed in the
// page, plain and sealed in turn.
import { randomUUID } from 'node:crypto';
import { launchBare, traced, type TBarePage } from './bare-chromium';
import { bareProbe, type TMemoryPeaks, withMemoryPeaks } from './browser-memory';
import { putInLibrary, type TBenchVideo } from './sealed-media';
import type { TOwner } from './sealed-owners';

export type TKind = 'plain' | 'sealed';

interface TOptions {
  base: string;
  rounds: number;
  /** Whether the dashboard is waited on until the app's service worker controls it. */
  withWorker: boolean;
}

/** A device while its uploads are timed: its profile in a bare Chromium. */
interface TBareDevice {
  kind: TKind;
  page: TBarePage;
  profileDir: string;
  owner: TOwner;
}

interface TUploadResult {
  seconds: number;
  peaks: TMemoryPeaks;
}

/**
 * One upload: the video put into the library, then the app asked to send it (the event a save
 * sends); timed in the page from the ask to the row saying 'synced'. A run of the half-minute
 * timer that had just begun would have listed the library before the video was in it: if the
 * video is not indexed after 2 s, the app is asked once more.
 */
async function timeUpload(device: TBareDevice, video: TBenchVideo, round: number) {
  const id = randomUUID();
  const { owner, page } = device;
  await putInLibrary(page, video, {
    id,
    title: `Bench ${device.kind} ${round}`,
    creatorId: owner.userId,
    recipientId: owner.recipientId,
  });
  const { value, peaks } = await withMemoryPeaks(bareProbe(page), device.profileDir, () =>
    traced(page, `${device.kind} upload, round ${round}`, () =>
      page.evaluate(async (id) => {
        const read = () =>
          new Promise<{ syncStatus: string; indexedAt: string | null } | undefined>(
            (resolve, reject) => {
              const open = indexedDB.open('memento-videos');
              open.onerror = () => reject(open.error);
              open.onsuccess = () => {
                const db = open.result;
                const get = db.transaction('videos').objectStore('videos').get(id);
                get.onsuccess = () => {
                  db.close();
                  resolve(get.result);
                };
                get.onerror = () => reject(get.error);
              };
            },
          );
        const started = performance.now();
        let askedAgain = false;
        window.dispatchEvent(new Event('memento:sync-request'));
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const row = await read();
          if (row?.syncStatus === 'synced') break;
          const elapsed = performance.now() - started;
          if (!askedAgain && row?.indexedAt === null && elapsed > 2_000) {
            askedAgain = true;
            window.dispatchEvent(new Event('memento:sync-request'));
          }
          if (elapsed > 30 * 60_000) throw new Error(`upload ${id} did not finish`);
        }
        return { seconds: (performance.now() - started) / 1000, askedAgain };
      }, id),
    ),
  );
  if (value.askedAgain) console.log(`  (${device.kind} round ${round}: the app was asked twice)`);
  return { id, result: { seconds: value.seconds, peaks } satisfies TUploadResult };
}

export /** Plain first in odd rounds, sealed first in even ones: a busy moment falls on both. */
const inTurn = <T>(devices: T[], round: number) =>
  round % 2 === 1 ? devices : [...devices].reverse();

/**
 * The dashboard open in a bare Chromium, once it shows the cloud library and (with the worker
 * allowed, which a bare Chromium cannot refuse) the worker controls it.
 */
async function openBareDashboard(
  profileDir: string,
  base: string,
  withWorker: boolean,
): Promise<TBarePage> {
  const page = await launchBare(profileDir, `${base}/`);
  await page.evaluate(async (withWorker) => {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const shown = [...document.querySelectorAll('h2')].some(
        (heading) => heading.textContent?.trim() === 'Your messages in the cloud',
      );
      if (shown && (!withWorker || navigator.serviceWorker.controller)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the dashboard did not show the cloud library');
  }, withWorker);
  return page;
}

/** Throws unless every message in `ids` is in the cloud, sealed or plain as `kind` says. */
async function checkKind(device: TBareDevice, ids: string[]) {
  const sealed = await device.page.evaluate(
    (ids) =>
      Promise.all(
        ids.map(async (id) => {
          const answer = await fetch(`/api/videos/${id}/playback`, {
            headers: { 'x-device-id': localStorage.getItem('deviceId') ?? '' },
          });
          if (!answer.ok) throw new Error(`${id}: ${answer.status}`);
          return ((await answer.json()) as { sealed: unknown }).sealed !== null;
        }),
      ),
    ids,
  );
  if (sealed.some((isSealed) => isSealed !== (device.kind === 'sealed'))) {
    throw new Error(`${device.kind} owner's uploads were not all ${device.kind}`);
  }
}

/**
 * The uploads, timed in each owner's profile opened in a bare Chromium (Playwright's closed
 * meanwhile): what a visitor's browser does, without the inspector's copies. Answers each kind's
 * results and the last message sent.
 */
export async function timeUploads(
  devices: { kind: TKind; profileDir: string; owner: TOwner }[],
  video: TBenchVideo,
  options: TOptions,
) {
  const { base, rounds, withWorker } = options;
  const uploads = new Map<TKind, TUploadResult[]>([
    ['plain', []],
    ['sealed', []],
  ]);
  const ids = new Map<TKind, string[]>([
    ['plain', []],
    ['sealed', []],
  ]);
  const bare: TBareDevice[] = [];
  try {
    for (const device of devices) {
      bare.push({ ...device, page: await openBareDashboard(device.profileDir, base, withWorker) });
    }
    for (let round = 1; round <= rounds; round += 1) {
      for (const device of inTurn(bare, round)) {
        const { id, result } = await timeUpload(device, video, round);
        uploads.get(device.kind)!.push(result);
        ids.get(device.kind)!.push(id);
        console.log(`  upload ${device.kind} round ${round}: ${result.seconds.toFixed(1)} s`);
      }
    }
    for (const device of bare) await checkKind(device, ids.get(device.kind)!);
  } finally {
    for (const device of bare) await device.page.close();
  }
  return { uploads, lastIds: new Map([...ids].map(([kind, list]) => [kind, list.at(-1)!])) };
}
