// `npm run bench:web` (docs/decisions/030-first-page.md): Lighthouse 12 (mobile, its default simulated
// throttling) on the first pages a new visitor meets, served by the built app exactly as
// `npm start` serves them, each on a fresh browser profile (a first visit), and on a bare React
// page in the same rounds (scripts/bench-web-baseline.mjs). Then the pages a signed-in owner lives
// in, on their primary device: an owner is registered and onboarded once through the app's own
// requests, and each run's fresh profile gets that session cookie, what the app kept in
// localStorage (the device id, the cached user) and the app's own database, with and without a
// stored cookie choice; the HTTP cache stays cold. Prints the performance score, the paints, the blocking time, the layout
// shift and the script transferred, against the goals. BENCH_SAVE_DIR keeps each run's report.
// BENCH_WEB_AGAINST=<git revision> also builds that revision apart (in .tmp/) and measures its
// pages in the same rounds, alternating with this checkout's: a before and after that
// meet the same load, where two runs of this script hours apart would not.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import { launchChrome, restoreOwner, signInOwner } from './bench/web-owner.mjs';
import { startBaseline } from './bench-web-baseline.mjs';
import { buildWeb } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = (process.env.BENCH_PAGES ?? '/auth,/features,/').split(',').filter(Boolean);
const SIGNED_IN_PAGES = (process.env.BENCH_SIGNED_IN_PAGES ?? '/,/recipients,/record,/audit-logs')
  .split(',')
  .filter(Boolean);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const port = 5600 + (process.pid % 100);

// Built beside dist/web and swapped in whole: a browser test serving dist/web meanwhile keeps a
// complete build.
try {
  buildWeb();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

/** Starts `npm start`'s server from `cwd` on `port` with a data folder of its own. */
async function startApp(cwd, port) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memento-bench-web-'));
  const appBase = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(cwd, 'scripts/start.mjs')], {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: appBase,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; ; i += 1) {
    if (
      await fetch(`${appBase}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error(`the server in ${cwd} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base: appBase,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The revision to compare with, exported and built in a folder of its own. */
function buildRevision(revision) {
  const dir = path.join(root, '.tmp', `bench-web-${revision.replace(/[^\w.-]/g, '_')}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', revision], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  for (const script of ['scripts/build-web.mjs', 'scripts/build-server.mjs']) {
    execFileSync(process.execPath, [script], { cwd: dir, stdio: 'ignore' });
  }
  return dir;
}

const AGAINST = process.env.BENCH_WEB_AGAINST;
const app = await startApp(root, port);
const base = app.base;
const against = AGAINST ? await startApp(buildRevision(AGAINST), port + 1) : null;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One Lighthouse run; a run Lighthouse could not trace (a loaded host) is tried again once. */
async function measure(url, owner = null, withConsent = false, isRetry = false) {
  const chrome = await launchChrome();
  try {
    if (owner) await restoreOwner(chrome, owner, withConsent);
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      logLevel: 'error',
      // Lighthouse clears the origin's storage first, unless told; the cache is cold either way.
      disableStorageReset: Boolean(owner),
      // With BENCH_TRACE_DIR the trace also holds the JavaScript samples, so that
      // scripts/read-trace.mjs can name what each long task ran.
      ...(process.env.BENCH_TRACE_DIR && {
        additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler',
      }),
    });
    const { audits, categories, runtimeError } = result.lhr;
    const { origin, pathname } = new URL(url);
    const side = origin === against?.base ? '-against' : '';
    const page = origin === base || side ? pathname.slice(1) || 'home' : 'bare-react';
    const name = `${page}${owner ? (withConsent ? '-consent' : '-owner') : ''}${side}`.replaceAll(
      '/',
      '-',
    );
    if (process.env.BENCH_SAVE_DIR) {
      writeFileSync(
        path.join(process.env.BENCH_SAVE_DIR, `${name}.json`),
        JSON.stringify(result.lhr),
      );
    }
    if (process.env.BENCH_TRACE_DIR) {
      writeFileSync(
        path.join(process.env.BENCH_TRACE_DIR, `${name}.trace.json`),
        JSON.stringify(result.artifacts.Trace),
      );
    }
    // A run Lighthouse could not finish scores null: say why rather than print a 0.
    if (categories.performance.score === null) {
      console.log(
        `  ${url}: Lighthouse could not score this run (${runtimeError?.code ?? 'no score'}: ${runtimeError?.message ?? ''})`,
      );
      if (!isRetry) {
        await chrome.kill();
        return measure(url, owner, withConsent, true);
      }
    }
    // A run that lost the session would measure the sign-in page under the dashboard's name.
    if (
      owner &&
      !audits['network-requests'].details.items.some(
        (item) => new URL(item.url).pathname === '/api/user' && item.statusCode === 200,
      )
    ) {
      const answers = audits['network-requests'].details.items
        .filter((item) => new URL(item.url).pathname.startsWith('/api/'))
        .map((item) => `${new URL(item.url).pathname} ${item.statusCode}`);
      throw new Error(`${url}: the owner was not signed in during the run (${answers.join(', ')})`);
    }
    const scripts = audits['resource-summary'].details.items.find(
      (item) => item.resourceType === 'script',
    );
    return {
      score: Math.round(categories.performance.score * 100),
      lcp: audits['largest-contentful-paint'].numericValue,
      fcp: audits['first-contentful-paint'].numericValue,
      tbt: audits['total-blocking-time'].numericValue,
      cls: audits['cumulative-layout-shift'].numericValue,
      scriptKiB: scripts.transferSize / 1024,
      opportunities: Object.values(audits)
        .filter((audit) => audit.details?.type === 'opportunity' && (audit.numericValue ?? 0) > 100)
        .map((audit) => `${audit.id} ${Math.round(audit.numericValue)} ms`),
      lcpElement:
        audits['largest-contentful-paint-element'].details?.items?.[0]?.items?.[0]?.node?.snippet,
      shifts: (audits['layout-shifts']?.details?.items ?? [])
        .slice(0, 3)
        .map((item) => `${item.node?.selector ?? 'unknown'} ${item.score.toFixed(3)}`),
      // Where the main thread's time went (what blocking time is made of), largest first.
      mainThread: audits['mainthread-work-breakdown'].details.items
        .slice(0, 4)
        .map((item) => `${item.groupLabel} ${Math.round(item.duration)} ms`),
    };
  } finally {
    await chrome.kill();
  }
}

function report(label, runs) {
  const best = runs.find((run) => run.score === median(runs.map((r) => r.score)));
  console.log(
    `${label.padEnd(AGAINST ? 34 : 22)} performance ${median(runs.map((r) => r.score))} (runs: ${runs.map((r) => r.score).join(', ')})` +
      `  FCP ${(median(runs.map((r) => r.fcp)) / 1000).toFixed(2)} s` +
      `  LCP ${(median(runs.map((r) => r.lcp)) / 1000).toFixed(2)} s` +
      `  TBT ${Math.round(median(runs.map((r) => r.tbt)))} ms` +
      `  CLS ${median(runs.map((r) => r.cls)).toFixed(3)}` +
      `  script ${median(runs.map((r) => r.scriptKiB)).toFixed(0)} KiB` +
      (best.opportunities.length ? `\n           ${best.opportunities.join('; ')}` : '') +
      `\n           main thread: ${best.mainThread.join('; ')}` +
      (best.lcpElement ? `\n           largest paint: ${best.lcpElement.slice(0, 100)}` : '') +
      (best.shifts.length ? `\n           shifted: ${best.shifts.join('; ')}` : ''),
  );
}

/**
 * This checkout's side and, with BENCH_WEB_AGAINST, the other build's, in the order of this round:
 * each round starts with the other side, so neither always meets a just-warmed machine.
 */
function inTurn(run, ours, theirs) {
  if (!theirs) return [ours];
  return run % 2 ? [ours, theirs] : [theirs, ours];
}

// The bare React page runs beside the app's pages, round by round, so both meet the same load.
const baselinePort = port + 100;
const stopBaseline = await startBaseline(
  path.join(root, '.tmp', `bench-web-baseline-${process.pid}`),
  baselinePort,
);
try {
  const owner = SIGNED_IN_PAGES.length > 0 ? await signInOwner(base) : null;
  const againstOwner =
    against && SIGNED_IN_PAGES.length > 0 ? await signInOwner(against.base) : null;
  const signedIn = SIGNED_IN_PAGES.flatMap((page) => [
    { page, withConsent: false, label: `${page} signed in` },
    { page, withConsent: true, label: `${page} +consent` },
  ]);
  const againstLabel = (label) => `${label} (${AGAINST})`;
  const runs = {
    baseline: [],
    ...Object.fromEntries(PAGES.map((page) => [page, []])),
    ...Object.fromEntries(PAGES.map((page) => [againstLabel(page), []])),
    ...Object.fromEntries(signedIn.map(({ label }) => [label, []])),
    ...Object.fromEntries(signedIn.map(({ label }) => [againstLabel(label), []])),
  };
  for (let run = 0; run < RUNS; run += 1) {
    runs.baseline.push(await measure(`http://127.0.0.1:${baselinePort}/`));
    for (const page of PAGES) {
      const sides = inTurn(run, [page, base], against && [againstLabel(page), against.base]);
      for (const [name, at] of sides) runs[name].push(await measure(`${at}${page}`));
    }
    for (const { page, withConsent, label } of signedIn) {
      const sides = inTurn(
        run,
        [label, owner],
        againstOwner && [againstLabel(label), againstOwner],
      );
      for (const [name, who] of sides) {
        runs[name].push(await measure(`${who.base}${page}`, who, withConsent));
      }
    }
  }
  report('bare React', runs.baseline);
  for (const page of PAGES) {
    report(page, runs[page]);
    if (against) report(againstLabel(page), runs[againstLabel(page)]);
  }
  if (PAGES.length > 0) {
    console.log('goals (public): performance ≥ 97 on each, script ≤ 150 KiB on a first visit');
  }
  for (const { label } of signedIn) {
    report(label, runs[label]);
    if (againstOwner) report(againstLabel(label), runs[againstLabel(label)]);
  }
  if (signedIn.length > 0) {
    console.log(
      'goals (signed in): performance ≥ 95, CLS ≤ 0.05, script ≤ 200 KiB, LCP ≤ 2.5 s on each',
    );
  }
} finally {
  await stopBaseline();
  await app.stop();
  await against?.stop();
}
