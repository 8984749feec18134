import type { Page } from '@playwright/test';
import { expect, registerUser, test } from '../fixtures';
import { expectNoSeriousViolations } from './axe';
import { waitForMail } from './outbox';

// A care home's recording station in the browser tests: the sizes it is checked at, a carer
// joining with a PIN, and what the tablet must hold once a session is over.

export const STATION_VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;

/** Axe at a phone's size and a laptop's, then back to the laptop's. */
export async function scanAtBothSizes(page: Page, label: string) {
  for (const [name, viewport] of Object.entries(STATION_VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, test.info(), `${label} (${name})`);
  }
  await page.setViewportSize(STATION_VIEWPORTS.laptop);
}

/** A picture of the whole page, kept with the test's results to be looked at. */
export async function attachScreenshot(page: Page, name: string) {
  const file = test.info().outputPath(name);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

/** The invited carer registers, accepts the home's invitation and sets a PIN for its tablets. */
export async function carerJoinsWithPin(
  page: Page,
  server: { dataDir: string },
  carer: { firstName: string; lastName: string; email: string; homeName: string; pin: string },
) {
  await registerUser(page, {
    firstName: carer.firstName,
    lastName: carer.lastName,
    email: carer.email,
  });
  const invitation = await waitForMail(carer.email, /invites you/, { dataDir: server.dataDir });
  const link = /https?:\/\/\S+\/care-home\/join#[\w-]+/.exec(invitation.text)![0];
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(page.getByText(`You are on ${carer.homeName}’s staff`)).toBeVisible();
  await page.getByLabel('Your PIN (4 to 6 numbers)').fill(carer.pin);
  await page.getByRole('button', { name: 'Save my PIN' }).click();
  await expect(page.getByText('Your PIN is saved')).toBeVisible();
}

/** Text shaped like a key wrap (`v1.<iv>.<sealed key>`), as the server hands them out. */
const WRAP_SHAPE = /v1\.[\w-]{16}\.[\w-]{64}/;

/**
 * After a session: nothing of anyone's in the tablet's browser. No database, no cache, no session
 * cookie, web storage holding only the tablet's own device id and cookie choice, and no key
 * material anywhere it could be kept: no wrap, nor any of `secrets` (a password, a wrap).
 */
export async function expectStationHoldsNothing(tablet: Page, secrets: readonly string[] = []) {
  const left = await tablet.evaluate(async () => {
    const entries = (storage: Storage) =>
      Array.from({ length: storage.length }, (_, i) => storage.key(i)!).map((key) => ({
        key,
        value: storage.getItem(key) ?? '',
      }));
    return {
      databases: (await indexedDB.databases()).map((db) => db.name),
      caches: await caches.keys(),
      session: entries(sessionStorage),
      local: entries(localStorage),
    };
  });
  expect(left.databases).toEqual([]);
  expect(left.caches).toEqual([]);
  expect(left.session.every(({ key }) => /device/i.test(key))).toBe(true);
  expect(left.local.every(({ key }) => /device|cookieConsent/i.test(key))).toBe(true);
  const cookies = await tablet.context().cookies();
  expect(cookies.map((cookie) => cookie.name)).not.toContain('memento_station');
  expect(cookies.map((cookie) => cookie.name)).not.toContain('memento_session');
  const kept = [
    ...left.session,
    ...left.local,
    ...cookies.map(({ name, value }) => ({ key: name, value })),
  ];
  for (const { key, value } of kept) {
    expect(`${key}=${value}`).not.toMatch(WRAP_SHAPE);
    for (const secret of secrets) expect(`${key}=${value}`).not.toContain(secret);
  }
}
