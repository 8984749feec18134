// bench:web's browsers: a fresh Chromium for each run, and a signed-in owner made once and put
// into each run's fresh profile (cookies, localStorage, the app's own database; a cold HTTP cache).
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { findChromium } from '../../tests/e2e/support/browser.mjs';

/** A headless Chromium of its own, on a fresh profile. */
export function launchChrome() {
  return chromeLauncher.launch({
    chromePath: findChromium()?.path,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
    ],
  });
}

/**
 * Opens the owner's dashboard until it greets them, without its service worker: a worker left
 * installed would answer the measured load from its caches.
 */
async function openDashboard(page, base) {
  await page.setRequestInterception(true);
  page.on('request', (request) =>
    new URL(request.url()).pathname === '/sw.js' ? request.abort() : request.continue(),
  );
  await page.goto(`${base}/`);
  await page.waitForFunction(
    () => [...document.querySelectorAll('h1')].some((h) => h.textContent?.startsWith('Welcome')),
    { timeout: 60_000 },
  );
}

/**
 * Registers and onboards an owner with the requests the app itself sends, from inside its page
 * (its device id, its cookie), as tests/e2e/fixtures.ts does, then opens the dashboard once.
 * Answers what a returning owner's browser holds: the cookies and localStorage.
 */
export async function signInOwner(base) {
  const chrome = await launchChrome();
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/auth`);
    await page.waitForFunction(() => localStorage.getItem('deviceId') !== null, {
      timeout: 60_000,
    });
    const username = `bench-${process.pid}`;
    await page.evaluate(
      async ({ username }) => {
        async function call(url, body) {
          const response = await fetch(url, {
            method: 'POST',
            credentials: 'include',
            headers: {
              'X-Device-ID': localStorage.getItem('deviceId') ?? '',
              'Content-Type': 'application/json',
            },
            body: JSON.stringify(body),
          });
          if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
        }
        // What src/web/lib/fingerprint.ts sends.
        const fingerprint = [
          navigator.userAgent,
          `${screen.width}x${screen.height}`,
          String(screen.colorDepth),
          navigator.language,
          String(new Date().getTimezoneOffset()),
          navigator.platform,
        ].join('|');
        await call('/api/register', {
          firstName: 'Margaret',
          lastName: 'Hughes',
          email: `${username}@example.test`,
          username,
          password: 'Tulips&Tea-2026',
          category: 'primary',
          createdById: null,
          tosAccepted: true,
          tosAcceptedAt: new Date().toISOString(),
          deviceId: localStorage.getItem('deviceId'),
          fingerprint,
        });
        await call('/api/recipients', {
          firstName: 'Thomas',
          lastName: 'Hughes',
          email: `${username}-kin@example.test`,
          phoneNumber: '+44 7700 900123',
          relationship: 'Son',
          category: 'next_of_kin',
        });
        await call('/api/user/complete-onboarding', {
          onboardingCompletedAt: new Date().toISOString(),
        });
      },
      { username },
    );
    // The dashboard once, so the app keeps what it keeps for a returning owner (the cached user).
    await openDashboard(page, base);
    const storage = await page.evaluate(() => ({ ...localStorage }));
    const cookies = await browser.cookies();
    return { base, storage, cookies: cookies.filter((cookie) => base.includes(cookie.domain)) };
  } finally {
    await browser.disconnect();
    await chrome.kill();
  }
}

/** Puts the owner's cookies and localStorage into a fresh profile; its HTTP cache stays cold. */
export async function restoreOwner(chrome, owner, withConsent) {
  const base = owner.base;
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  try {
    await browser.setCookie(...owner.cookies);
    const page = await browser.newPage();
    // Any response of the origin gives its localStorage; this one loads no page code.
    await page.goto(`${base}/api/health`);
    const storage = withConsent
      ? {
          cookieConsent: JSON.stringify({
            essential: true,
            analytics: false,
            marketing: false,
            timestamp: new Date().toISOString(),
          }),
          ...owner.storage,
        }
      : Object.fromEntries(
          Object.entries(owner.storage).filter(([key]) => key !== 'cookieConsent'),
        );
    await page.evaluate((entries) => {
      localStorage.clear();
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, storage);
    // A returning owner's device already holds the app's own database (the videos' store): the
    // dashboard once makes it, as the owner's first visit did. Then everything a first visit
    // caches goes (the service worker, its caches, the HTTP cache), so the measured load fetches
    // every file afresh.
    await openDashboard(page, base);
    await page.goto(`${base}/api/health`);
    await page.evaluate(async () => {
      for (const registration of await navigator.serviceWorker.getRegistrations()) {
        await registration.unregister();
      }
      for (const name of await caches.keys()) await caches.delete(name);
    });
    const session = await page.createCDPSession();
    await session.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.disconnect();
  }
}
