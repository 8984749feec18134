// `npm run bench:sign-in`: how long an owner without enhanced encryption waits from pressing
// Sign In to leaving the sign-in page, in headless Chromium. Each round registers a fresh owner
// through the page on its own browser context (a device of its own), signs out and signs in
// again. BENCH_SIGN_IN_BASES lists running servers (default the one `npm start` opens), measured
// in turn in the same rounds, e.g. this checkout and an earlier build started from a git worktree
// on another PORT: a before and after that meet the same load. Prints each server's times, the
// median, and the requests one sign-in made.
import { chromium } from 'playwright-core';
import { findChromium } from '../tests/e2e/support/browser.mjs';

const BASES = (process.env.BENCH_SIGN_IN_BASES ?? 'http://localhost:5000').split(',');
const ROUNDS = Number(process.env.BENCH_RUNS ?? 5);
const PASSWORD = 'Bluebells-in-May-2027';

/** A new owner on a device of their own, signed out again; answers the page and the name. */
async function registeredAndSignedOut(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${base}/auth?mode=register`);
  const name = `bench${Date.now()}${Math.floor(Math.random() * 1000)}`;
  await page.getByLabel('First name', { exact: true }).fill('Edith');
  await page.getByLabel('Last name', { exact: true }).fill('Clarke');
  await page.getByLabel('Email', { exact: true }).fill(`${name}@example.com`);
  await page.getByLabel('Username', { exact: true }).fill(name);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByLabel('I have read and agree').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await page.waitForURL(/\/onboarding$/);
  await page.getByRole('button', { name: 'Sign Out' }).first().click();
  await page.waitForURL(/\/auth$/);
  return { context, page, name };
}

/** Milliseconds from pressing Sign In to leaving /auth, and the sign-in requests sent. */
async function timeSignIn(browser, base) {
  const { context, page, name } = await registeredAndSignedOut(browser, base);
  try {
    await page.getByLabel('Username', { exact: true }).fill(name);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const requests = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === '/api/auth/prelogin' || pathname === '/api/login') {
        requests.push(`${pathname} {${Object.keys(request.postDataJSON() ?? {}).join(', ')}}`);
      }
    });
    const started = performance.now();
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/auth'), { timeout: 60_000 });
    return { ms: performance.now() - started, requests };
  } finally {
    await context.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const browser = await chromium.launch({
  executablePath: findChromium()?.path,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const times = new Map(BASES.map((base) => [base, []]));
  const requests = new Map();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const base of BASES) {
      const measured = await timeSignIn(browser, base);
      times.get(base).push(measured.ms);
      requests.set(base, measured.requests);
    }
  }
  for (const base of BASES) {
    const all = times.get(base).map((ms) => Math.round(ms));
    console.log(`${base}: sign-in ${median(all)} ms (median of ${all.join(', ')})`);
    console.log(`  requests: ${requests.get(base).join('; ')}`);
  }
} finally {
  await browser.close();
}
