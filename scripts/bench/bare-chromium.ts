// A Chromium the benchmarks drive over its DevTools pipe with only what they need: the page's
// script and its file inputs, never the Network domain. Playwright turns that domain on in every
// page it drives, and then Chromium hands the inspector a copy of every request body made from
// the page's own bytes, seconds for a buffer that a visitor's browser sends in hundredths
// (docs/benchmarks.md, 'Uploads timed as a visitor's browser runs them'). A visitor's browser has
// no inspector, so the uploads are timed here.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CHROMIUM_ARGS } from '../../playwright.config';

interface TAnswer {
  id?: number;
  result?: unknown;
  error?: { message: string };
  method?: string;
  params?: unknown;
}

/** Switches Playwright also gives its Chromium, so the two run the app alike. */
const LAUNCH_ARGS = [
  '--headless',
  '--no-first-run',
  '--no-default-browser-check',
  '--password-store=basic',
  '--use-mock-keychain',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--remote-debugging-pipe',
];

export interface TBarePage {
  /** Runs `fn(arg)` in the page and answers its result (JSON-like values only). */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Gives the file input `selector` finds the file at `file`, as a person's choice would. */
  setInputFiles(selector: string, file: string): Promise<void>;
  /** A DevTools command to the page (or, with `sessionId`, to another target). */
  send<R>(method: string, params?: object, sessionId?: string | null): Promise<R>;
  /** Hears every DevTools event named `method`, from any target, until the answer is called. */
  on(method: string, listener: (params: unknown) => void): () => void;
  close(): Promise<void>;
}

/**
 * Chromium started on the profile at `profileDir`, spoken to over its DevTools pipe: `send` asks
 * (of the attached page once `attach` named its session), `on` hears events until its answer is
 * called.
 */
function startOverPipe(profileDir: string) {
  const browser: ChildProcess = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [...CHROMIUM_ARGS, ...LAUNCH_ARGS, `--user-data-dir=${profileDir}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const toBrowser = browser.stdio[3] as Writable;
  const fromBrowser = browser.stdio[4] as Readable;
  const waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  const listeners = new Map<string, ((params: unknown) => void)[]>();
  let pending = '';
  const decoder = new StringDecoder('utf8');
  fromBrowser.on('data', (data: Buffer) => {
    pending += decoder.write(data);
    // Messages end with a NUL.
    for (let end = pending.indexOf('\0'); end >= 0; end = pending.indexOf('\0')) {
      const answer = JSON.parse(pending.slice(0, end)) as TAnswer;
      pending = pending.slice(end + 1);
      for (const listener of listeners.get(answer.method ?? '') ?? []) listener(answer.params);
      const asked = answer.id === undefined ? undefined : waiting.get(answer.id);
      if (!asked) continue;
      waiting.delete(answer.id!);
      if (answer.error) asked.reject(new Error(answer.error.message));
      else asked.resolve(answer.result);
    }
  });
  const exited = new Promise<void>((resolve) => browser.once('exit', () => resolve()));
  void exited.then(() => {
    for (const asked of waiting.values()) asked.reject(new Error('Chromium exited'));
  });
  let pageSession: string | null = null;
  const send = <R>(method: string, params: object = {}, sessionId = pageSession) =>
    new Promise<R>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      toBrowser.write(
        `${JSON.stringify({ id, method, params, sessionId: sessionId ?? undefined })}\0`,
      );
    });
  const on = (method: string, listener: (params: unknown) => void) => {
    listeners.set(method, [...(listeners.get(method) ?? []), listener]);
    return () => {
      listeners.set(
        method,
        (listeners.get(method) ?? []).filter((one) => one !== listener),
      );
    };
  };
  const attach = (sessionId: string) => {
    pageSession = sessionId;
  };
  return { browser, exited, send, on, attach };
}

/**
 * Chromium on the profile at `profileDir` (closed by whoever had it), showing `url`; `initScript`
 * runs in every document before the page's own scripts.
 */
export async function launchBare(
  profileDir: string,
  url: string,
  initScript = '',
): Promise<TBarePage> {
  const { browser, exited, send, on, attach } = startOverPipe(profileDir);
  const { targetId } = await send<{ targetId: string }>(
    'Target.createTarget',
    { url: 'about:blank' },
    null,
  );
  attach(
    (await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true }, null))
      .sessionId,
  );
  await send('Page.enable');
  if (initScript) await send('Page.addScriptToEvaluateOnNewDocument', { source: initScript });
  // BENCH_PAGE_LOG=1 prints what the page logs (timing marks added to a private build).
  if (process.env.BENCH_PAGE_LOG) {
    on('Runtime.consoleAPICalled', (params) => {
      const { args } = params as { args: { value?: unknown }[] };
      console.log(`  [page] ${args.map((arg) => arg.value).join(' ')}`);
    });
    await send('Runtime.enable');
  }
  await send('Page.navigate', { url });

  async function evaluateExpression(expression: string, returnByValue: boolean) {
    const answer = await send<{
      result: { value?: unknown; objectId?: string };
      exceptionDetails?: { exception?: { description?: string }; text: string };
    }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue });
    if (answer.exceptionDetails) {
      const { exception, text } = answer.exceptionDetails;
      throw new Error(exception?.description ?? text);
    }
    return answer.result;
  }

  // The page's document must have loaded before anything is run in it.
  const isLoaded = `document.readyState === 'complete' && location.href !== 'about:blank'`;
  for (const deadline = Date.now() + 60_000; ;) {
    const loaded = await evaluateExpression(isLoaded, true).catch(() => undefined);
    if (loaded?.value === true) break;
    if (Date.now() > deadline) throw new Error(`${url} did not load`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    async evaluate(fn, arg) {
      // tsx names functions with a helper the page does not have; the evaluated code needs it.
      const call = `(${fn.toString()})(${JSON.stringify(arg)})`;
      const expression = `globalThis.__name = (target) => target; ${call}`;
      return (await evaluateExpression(expression, true)).value as never;
    },
    async setInputFiles(selector, file) {
      const { objectId } = await evaluateExpression(
        `document.querySelector(${JSON.stringify(selector)})`,
        false,
      );
      await send('DOM.setFileInputFiles', { files: [file], objectId });
    },
    send,
    on,
    async close() {
      await send('Browser.close', {}, null).catch(() => undefined);
      const killed = setTimeout(() => browser.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killed);
    },
  };
}

interface TTraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * Runs `work` with Chromium's timeline traced, then answers what the busiest thread (the page's
 * main thread, when the page is the bottleneck) spent its time on: each kind of slice, summed,
 * largest first (slices nest, so the sums overlap).
 */
export async function traceBusiestThread<T>(
  page: TBarePage,
  work: () => Promise<T>,
): Promise<{
  value: T;
  busyMs: number;
  slices: { name: string; count: number; ms: number }[];
  threads: { name: string; ms: number }[];
}> {
  const events: TTraceEvent[] = [];
  const stopCollecting = page.on('Tracing.dataCollected', (params) => {
    events.push(...(params as { value: TTraceEvent[] }).value);
  });
  let stopWaiting = () => {};
  const complete = new Promise((resolve) => {
    stopWaiting = page.on('Tracing.tracingComplete', resolve);
  });
  await page.send(
    'Tracing.start',
    {
      categories: 'devtools.timeline,toplevel,disabled-by-default-devtools.timeline',
      transferMode: 'ReportEvents',
    },
    null,
  );
  let value: T;
  try {
    value = await work();
  } finally {
    await page.send('Tracing.end', {}, null);
    await complete;
    stopCollecting();
    stopWaiting();
  }
  const busy = new Map<string, number>();
  for (const event of events) {
    if (event.name !== 'RunTask' || event.ph !== 'X') continue;
    const thread = `${event.pid}/${event.tid}`;
    busy.set(thread, (busy.get(thread) ?? 0) + (event.dur ?? 0));
  }
  const names = new Map<string, string>();
  const processes = new Map<number, string>();
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'thread_name' && event.args?.name) {
      names.set(`${event.pid}/${event.tid}`, event.args.name);
    }
    if (event.ph === 'M' && event.name === 'process_name' && event.args?.name) {
      processes.set(event.pid, event.args.name);
    }
  }
  const byBusy = [...busy].sort((a, b) => b[1] - a[1]);
  const [thread, busyUs] = byBusy[0] ?? ['', 0];
  const slices = new Map<string, { name: string; count: number; ms: number }>();
  for (const event of events) {
    if (event.ph !== 'X' || event.name === 'RunTask' || `${event.pid}/${event.tid}` !== thread) {
      continue;
    }
    const slice = slices.get(event.name) ?? { name: event.name, count: 0, ms: 0 };
    slice.count += 1;
    slice.ms += (event.dur ?? 0) / 1000;
    slices.set(event.name, slice);
  }
  return {
    value,
    busyMs: busyUs / 1000,
    slices: [...slices.values()].sort((a, b) => b.ms - a.ms),
    threads: byBusy.map(([id, us]) => ({
      name: `${names.get(id) ?? 'thread'} ${id} (${processes.get(Number(id.split('/')[0])) ?? '?'})`,
      ms: us / 1000,
    })),
  };
}

/**
 * `work`, with BENCH_TRACE=1 traced: what the busiest thread of the browser spent its time on is
 * printed (the page's main thread, when it is what holds the work back).
 */
export async function traced<T>(page: TBarePage, what: string, work: () => Promise<T>): Promise<T> {
  if (!process.env.BENCH_TRACE) return work();
  const { value, busyMs, slices, threads } = await traceBusiestThread(page, work);
  const busiest = threads.slice(0, 5).map((thread) => `${thread.name} ${thread.ms.toFixed(0)} ms`);
  console.log(`  ${what}: the busiest threads: ${busiest.join(', ')}`);
  console.log(`  the busiest ran tasks for ${busyMs.toFixed(0)} ms, of which`);
  for (const slice of slices.slice(0, 12)) {
    console.log(`    ${slice.ms.toFixed(0)} ms in ${slice.count} × ${slice.name}`);
  }
  return value;
}
