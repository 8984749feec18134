// A browser's memory while one step of a benchmark runs: the page's JS heap and the ArrayBuffers
// outside it (through the DevTools protocol), and the resident memory of every Chromium process
// of the profile (Blobs and IndexedDB live in the browser process, not the page's).
import { readdirSync, readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import type { TBarePage } from './bare-chromium';

export interface TMemoryPeaks {
  /** V8's used heap of the page, peak above the idle baseline. */
  heap: number;
  /** ArrayBuffers' backing stores of the page, which V8 keeps outside its heap. */
  buffers: number;
  /** The same two of the service workers (where sealed messages are opened as they play). */
  workerHeap: number;
  workerBuffers: number;
  /**
   * Every Chromium process of the profile together, resident (memory two processes share counts
   * in each).
   */
  resident: number;
  /** Of that, the renderers' (the page's process). */
  renderers: number;
  /** Of that, the browser process's (Blobs, IndexedDB). */
  browser: number;
}

interface TProcess {
  ppid: number;
  cmdline: string;
}

function listProcesses(): Map<number, TProcess> {
  const processes = new Map<number, TProcess>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.split(') ')[1]!.split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      processes.set(Number(entry), { ppid, cmdline });
    } catch {
      // the process ended meanwhile
    }
  }
  return processes;
}

function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * The resident bytes of the Chromium started on `profileDir` and every process under it
 * (renderers, the GPU and network processes, the zygotes), of its renderers and of itself.
 */
export function chromiumResident(profileDir: string) {
  const processes = listProcesses();
  const root = [...processes].find(
    ([, process]) =>
      process.cmdline.includes(`--user-data-dir=${profileDir}`) &&
      !process.cmdline.includes('--type='),
  )?.[0];
  if (root === undefined) return { resident: 0, renderers: 0, browser: 0 };
  const tree = new Set([root]);
  // Children can be listed before their parents: go round until nothing new joins.
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, process] of processes) {
      if (!tree.has(pid) && tree.has(process.ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let resident = 0;
  let renderers = 0;
  for (const pid of tree) {
    const bytes = residentBytes(pid);
    resident += bytes;
    if (processes.get(pid)?.cmdline.includes('--type=renderer')) renderers += bytes;
  }
  return { resident, renderers, browser: residentBytes(root) };
}

type THeapUsage = { usedSize: number; backingStorageSize?: number };

/** What the memory sampling asks of a browser, whoever drives it. */
export interface TMemoryProbe {
  collectGarbage(): Promise<void>;
  /** The page's V8 heap and the ArrayBuffers outside it. */
  pageHeap(): Promise<THeapUsage | undefined>;
  /** The same, summed over the browser's service workers. */
  workerHeaps(): Promise<{ workerHeap: number; workerBuffers: number }>;
  close(): Promise<void>;
}

/**
 * Sums the heaps of the service workers `targets` lists, attaching to each once (`attach` answers
 * the session to ask it through, or undefined when it went meanwhile).
 */
function serviceWorkerSampler(
  targets: () => Promise<{ targetId: string; type: string }[]>,
  attach: (targetId: string) => Promise<string | undefined>,
  heapOf: (sessionId: string) => Promise<THeapUsage | undefined>,
) {
  const sessions = new Map<string, string>();
  return async () => {
    const total = { workerHeap: 0, workerBuffers: 0 };
    for (const target of (await targets()).filter((info) => info.type === 'service_worker')) {
      if (!sessions.has(target.targetId)) {
        const sessionId = await attach(target.targetId);
        if (!sessionId) continue;
        sessions.set(target.targetId, sessionId);
      }
      const usage = await heapOf(sessions.get(target.targetId)!);
      total.workerHeap += usage?.usedSize ?? 0;
      total.workerBuffers += usage?.backingStorageSize ?? 0;
    }
    return total;
  };
}

/**
 * The probe of a page Playwright drives. A service worker is no page's child and Playwright opens
 * no session on one: each is asked through the browser's session.
 */
async function playwrightProbe(context: BrowserContext, page: Page): Promise<TMemoryProbe> {
  const cdp = await context.newCDPSession(page);
  const browserCdp = await context.browser()!.newBrowserCDPSession();
  const answers = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  browserCdp.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) answers.get(message.id)?.(message.result);
  });
  const ask = <R>(sessionId: string, method: string) =>
    new Promise<R | undefined>((resolve) => {
      const id = nextId++;
      const done = (result: unknown) => {
        answers.delete(id);
        resolve(result as R | undefined);
      };
      answers.set(id, done);
      const message = JSON.stringify({ id, method });
      browserCdp
        .send('Target.sendMessageToTarget', { sessionId, message })
        .catch(() => done(undefined));
      setTimeout(() => done(undefined), 5_000);
    });
  return {
    collectGarbage: async () => {
      await cdp.send('HeapProfiler.collectGarbage');
    },
    pageHeap: () => cdp.send('Runtime.getHeapUsage').catch(() => undefined),
    workerHeaps: serviceWorkerSampler(
      async () => (await browserCdp.send('Target.getTargets')).targetInfos,
      async (targetId) =>
        (
          await browserCdp
            .send('Target.attachToTarget', { targetId, flatten: false })
            .catch(() => undefined)
        )?.sessionId,
      (sessionId) => ask<THeapUsage>(sessionId, 'Runtime.getHeapUsage'),
    ),
    async close() {
      await cdp.detach().catch(() => undefined);
      await browserCdp.detach().catch(() => undefined);
    },
  };
}

/** The probe of a page driven over a bare DevTools pipe (bare-chromium.ts). */
export function bareProbe(page: TBarePage): TMemoryProbe {
  const timeOut = <R>(asked: Promise<R>) =>
    Promise.race([
      asked.catch(() => undefined),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5_000)),
    ]);
  return {
    collectGarbage: async () => {
      await page.send('HeapProfiler.collectGarbage');
    },
    pageHeap: () => timeOut(page.send<THeapUsage>('Runtime.getHeapUsage')),
    workerHeaps: serviceWorkerSampler(
      async () =>
        (
          await page.send<{ targetInfos: { targetId: string; type: string }[] }>(
            'Target.getTargets',
            {},
            null,
          )
        ).targetInfos,
      async (targetId) =>
        (
          await timeOut(
            page.send<{ sessionId: string }>(
              'Target.attachToTarget',
              { targetId, flatten: true },
              null,
            ),
          )
        )?.sessionId,
      (sessionId) => timeOut(page.send<THeapUsage>('Runtime.getHeapUsage', {}, sessionId)),
    ),
    close: () => Promise.resolve(),
  };
}

/**
 * Runs `work` while sampling the page's and its service workers' heaps and the profile's processes
 * every 250 ms; answers the peaks above what they held just before, after a garbage collection
 * in the page. `probe` is a page Playwright drives (with its context) or a bare probe.
 */
export async function withMemoryPeaks<T>(
  driven: { context: BrowserContext; page: Page } | TMemoryProbe,
  profileDir: string,
  work: () => Promise<T>,
): Promise<{ value: T; peaks: TMemoryPeaks }> {
  const probe = 'page' in driven ? await playwrightProbe(driven.context, driven.page) : driven;
  await probe.collectGarbage();
  const sample = async () => {
    const usage = await probe.pageHeap();
    return {
      heap: usage?.usedSize ?? 0,
      buffers: usage?.backingStorageSize ?? 0,
      ...(await probe.workerHeaps()),
      ...chromiumResident(profileDir),
    };
  };
  const baseline = await sample();
  const top: TMemoryPeaks = { ...baseline };
  const keys = Object.keys(top) as (keyof TMemoryPeaks)[];
  let running = true;
  const sampling = (async () => {
    while (running) {
      const now = await sample();
      for (const key of keys) top[key] = Math.max(top[key], now[key]);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    const value = await work();
    const peaks = { ...top };
    for (const key of keys) peaks[key] -= baseline[key];
    return { value, peaks };
  } finally {
    running = false;
    await sampling;
    await probe.close();
  }
}
