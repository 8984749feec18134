// `npm run bench:web` (issue 15 item 3): Lighthouse 12 (mobile, its default simulated throttling)
// on the first pages a new visitor meets, served by the built app exactly as `npm start` serves
// them, each on a fresh browser profile (a first visit), and on a bare React page in the same
// rounds (scripts/bench-web-baseline.mjs). Prints the performance score, the paints, the blocking
// time and the script transferred, against the goals (97, 150 KiB).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from '../tests/e2e/support/browser.mjs';
import { startBaseline } from './bench-web-baseline.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = (process.env.BENCH_PAGES ?? '/auth,/features,/').split(',');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const port = 5600 + (process.pid % 100);
const base = `http://127.0.0.1:${port}`;

const build = spawn(
  process.execPath,
  ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if ((await new Promise((resolve) => build.on('exit', resolve))) !== 0) process.exit(1);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memento-bench-web-'));
const server = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
for (let i = 0; ; i += 1) {
  if (
    await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 600) throw new Error('server did not start');
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: findChromium()?.path,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
    ],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      logLevel: 'error',
    });
    const { audits, categories, runtimeError } = result.lhr;
    // A run Lighthouse could not finish scores null: say why rather than print a 0.
    if (categories.performance.score === null) {
      console.log(
        `  ${url}: Lighthouse could not score this run (${runtimeError?.code ?? 'no score'}: ${runtimeError?.message ?? ''})`,
      );
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
    `${label.padEnd(10)} performance ${median(runs.map((r) => r.score))} (runs: ${runs.map((r) => r.score).join(', ')})` +
      `  FCP ${(median(runs.map((r) => r.fcp)) / 1000).toFixed(2)} s` +
      `  LCP ${(median(runs.map((r) => r.lcp)) / 1000).toFixed(2)} s` +
      `  TBT ${Math.round(median(runs.map((r) => r.tbt)))} ms` +
      `  CLS ${median(runs.map((r) => r.cls)).toFixed(3)}` +
      `  script ${median(runs.map((r) => r.scriptKiB)).toFixed(0)} KiB` +
      (best.opportunities.length ? `\n           ${best.opportunities.join('; ')}` : '') +
      `\n           main thread: ${best.mainThread.join('; ')}`,
  );
}

// The bare React page runs beside the app's pages, round by round, so both meet the same load.
const baselinePort = port + 100;
const stopBaseline = await startBaseline(
  path.join(root, '.tmp', `bench-web-baseline-${process.pid}`),
  baselinePort,
);
try {
  const runs = { baseline: [], ...Object.fromEntries(PAGES.map((page) => [page, []])) };
  for (let run = 0; run < RUNS; run += 1) {
    runs.baseline.push(await measure(`http://127.0.0.1:${baselinePort}/`));
    for (const page of PAGES) runs[page].push(await measure(`${base}${page}`));
  }
  report('bare React', runs.baseline);
  for (const page of PAGES) report(page, runs[page]);
  console.log('goals: performance ≥ 97 on each, script ≤ 150 KiB on a first visit');
} finally {
  await stopBaseline();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
