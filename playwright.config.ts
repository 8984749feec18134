import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { DISABLE_FEATURES_SWITCH, findChromium } from './tests/e2e/support/browser.mjs';
import { ensureFakeCamera } from './tests/e2e/support/fake-camera';
import {
  E2E_ADMIN_EMAIL,
  E2E_DONATION_URL,
  E2E_SOURCE_CODE_URL,
} from './tests/e2e/support/installation';

// Browser tests drive the real production build (scripts/e2e.mjs builds it unless current) served
// by the real server on its own port, with a fresh DATA_DIR and, under TEST_DATABASE_URL, a
// brand-new PostgreSQL database (tests/e2e/support/e2e-server.mjs).
const port = Number(process.env.E2E_PORT ?? 5055);
// The server's DATA_DIR. Chosen once in the runner process; the test workers inherit it from the
// environment, so they can read the mail the server writes to DATA_DIR/outbox.
process.env.E2E_DATA_DIR ??= path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '.tmp',
  `e2e-${randomBytes(4).toString('hex')}`,
);
const appUrl = `http://localhost:${port}`;

const chromiumPath = findChromium()?.path;

/**
 * The browser tests whose outcome can depend on the database engine carry the tag `@engine`
 * (tests/e2e/fixtures.ts): state that must survive a server restart, scheduled work claimed
 * across servers, payment webhooks racing each other. With `ENGINE_TESTS_ONLY=1` only these run:
 * CI runs every browser test on PGlite and these again on PostgreSQL, whose API tests cover the
 * rest of what the engine decides (docs/decisions/069-browser-tests-once-engine-specs-twice.md).
 */
const onlyEngineTests = process.env.ENGINE_TESTS_ONLY === '1';

/** Chromium as every browser test and benchmark starts it: a fake camera and microphone. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  DISABLE_FEATURES_SWITCH,
];

export default defineConfig({
  testDir: 'tests/e2e',
  // Each test is queued on its own (a file's tests spread over the workers) except where a file
  // asks for serial mode.
  fullyParallel: true,
  // Two workers a core and one more: a test spends much of its time waiting (on the server, a
  // timer, the mail, a WebRTC peer), so with fewer the machine sat partly idle; with five on two
  // cores both stay busy (docs/benchmarks.md, 'CI time'). `E2E_WORKERS` sets another number.
  workers: Number(process.env.E2E_WORKERS ?? Math.min(6, availableParallelism() * 2 + 1)),
  // One folder per engine: CI runs both at once, and each run empties its own at the start.
  outputDir: path.join('test-results', process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'),
  retries: 0,
  reporter: 'list',
  forbidOnly: true,
  // A budget, not a measure: on a busy 2-core machine a whole sign-up, move and sign-in took over 60 s.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: appUrl,
    // Each test's fresh browser installed the offline service worker, which fetched and stored
    // every one of the app's files beside the test: about a tenth of the browser's CPU, for
    // nothing the test looks at (online, pages and answers come from the server either way).
    // The offline tests allow it (tests/e2e/offline.spec.ts).
    serviceWorkers: 'block',
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        ...CHROMIUM_ARGS,
        // A small camera of the tests' own (tests/e2e/support/fake-camera.ts).
        `--use-file-for-fake-video-capture=${ensureFakeCamera()}`,
        // The tests' pages run their JavaScript for seconds, not hours: V8's baseline compiler
        // alone serves them with less CPU than its optimising tiers spend compiling (decision
        // 031, eighth round). Not for the benchmarks (playwright.bench.config.ts), which
        // measure the app as a visitor's browser runs it.
        '--js-flags=--max-opt=1',
      ],
    },
    // A failed test keeps a screenshot of the page as it failed and Playwright's error context
    // (the page's accessibility tree). Traces only when asked for (`E2E_TRACE=1`, for a failure
    // to be read step by step): recorded for every test, passed or not, they cost a good share of
    // the browser run's CPU (docs/benchmarks.md, 'CI time'). Without the screencast even then: with
    // it, they cost far more.
    trace: process.env.E2E_TRACE
      ? { mode: 'retain-on-failure', screenshots: false, snapshots: true }
      : 'off',
    screenshot: 'only-on-failure',
  },
  // Projects are queued in this order: the tests tagged LONG_WAIT (a minute or more of real time)
  // start first, so they run beside the others rather than at the end. Together the two projects
  // hold every test exactly once.
  projects: [
    { name: 'long-wait', grep: onlyEngineTests ? /^(?=.*@long-wait)(?=.*@engine)/ : /@long-wait/ },
    {
      name: 'chromium',
      grepInvert: /@long-wait/,
      ...(onlyEngineTests ? { grep: /@engine/ } : {}),
    },
  ],
  webServer: {
    command: 'node tests/e2e/support/e2e-server.mjs',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: appUrl,
      E2E_DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      // Every test context sends its own X-Forwarded-For (tests/e2e/fixtures.ts), so the per-IP
      // limits (30 registrations an hour) see many households rather than one, as in real use.
      TRUST_PROXY: 'true',
      // Only this address becomes the admin, so every other account in the browser tests
      // is an ordinary Community Edition user whichever spec registers first.
      ADMIN_EMAIL: E2E_ADMIN_EMAIL,
      DONATION_URL: E2E_DONATION_URL,
      SOURCE_CODE_URL: E2E_SOURCE_CODE_URL,
      ENHANCED_ENCRYPTION_PREVIEW: 'true',
    },
  },
});
