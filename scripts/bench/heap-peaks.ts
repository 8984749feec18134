// The JS heap of a page and of its backup worker, sampled while one step of bench:backup runs.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

export interface THeapPeaks {
  /** V8's used heap (JavaScript objects). */
  page: number;
  worker: number;
  /** ArrayBuffers' backing stores, which V8 keeps outside its heap. */
  pageBuffers: number;
  workerBuffers: number;
}

/**
 * Samples the page's and the backup worker's JS heap (and the ArrayBuffers outside it) every
 * 250 ms until `work` ends; returns the peaks. With `profile.dir`, the worker's CPU profile of the
 * step is written there too. The worker is reached through the page's DevTools session
 * (Playwright opens no session of its own on a worker).
 */
export async function withHeapPeaks<T>(
  page: Page,
  profile: { dir: string | undefined; name: string },
  work: () => Promise<T>,
) {
  const cdp = await page.context().newCDPSession(page);
  const peaks: THeapPeaks = { page: 0, worker: 0, pageBuffers: 0, workerBuffers: 0 };
  const workerSessions = new Set<string>();
  const answers = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  cdp.on('Target.attachedToTarget', (event) => {
    if (event.targetInfo.type !== 'worker') return;
    workerSessions.add(event.sessionId);
    if (profile.dir) {
      void askWorker(event.sessionId, 'Profiler.enable').then(() =>
        askWorker(event.sessionId, 'Profiler.start'),
      );
    }
  });
  cdp.on('Target.detachedFromTarget', (event) => {
    if (event.sessionId) workerSessions.delete(event.sessionId);
  });
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) answers.get(message.id)?.(message.result);
  });
  const askWorker = <R>(sessionId: string, method: string, timeout = 5_000) =>
    new Promise<R | undefined>((resolve) => {
      const id = nextId++;
      answers.set(id, (result) => {
        answers.delete(id);
        resolve(result as R);
      });
      cdp
        .send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({ id, method }),
        })
        .catch(() => resolve(undefined));
      setTimeout(() => resolve(undefined), timeout);
    });
  await cdp.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  });
  // Garbage left by earlier steps would count towards this step's peak.
  await cdp.send('HeapProfiler.collectGarbage');
  for (const sessionId of workerSessions) await askWorker(sessionId, 'HeapProfiler.collectGarbage');
  let running = true;
  const sampling = (async () => {
    while (running) {
      const usage = await cdp.send('Runtime.getHeapUsage').catch(() => undefined);
      if (usage) {
        peaks.page = Math.max(peaks.page, usage.usedSize);
        peaks.pageBuffers = Math.max(peaks.pageBuffers, usage.backingStorageSize ?? 0);
      }
      for (const sessionId of workerSessions) {
        const heap = await askWorker<{ usedSize: number; backingStorageSize?: number }>(
          sessionId,
          'Runtime.getHeapUsage',
        );
        if (!heap) continue;
        peaks.worker = Math.max(peaks.worker, heap.usedSize);
        peaks.workerBuffers = Math.max(peaks.workerBuffers, heap.backingStorageSize ?? 0);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    const value = await work();
    return { value, peaks };
  } finally {
    running = false;
    await sampling;
    if (profile.dir) {
      for (const sessionId of workerSessions) {
        const result = await askWorker<{ profile: unknown }>(sessionId, 'Profiler.stop', 60_000);
        if (result) {
          const file = path.join(profile.dir, `backup-worker-${profile.name}.cpuprofile`);
          writeFileSync(file, JSON.stringify(result.profile));
        }
      }
    }
    await cdp.detach();
  }
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

export const describePeaks = (peaks: THeapPeaks) =>
  `JS heap page ${mb(peaks.page)} MB, worker ${peaks.worker ? `${mb(peaks.worker)} MB` : 'not readable'}; ` +
  `ArrayBuffers page ${mb(peaks.pageBuffers)} MB, worker ${mb(peaks.workerBuffers)} MB`;
