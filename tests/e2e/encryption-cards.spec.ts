import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page, Request, TestInfo } from '@playwright/test';
import {
  EMERGENCY_CODE_PATTERN,
  LONG_WAIT,
  expect,
  registerPremiumUser,
  test,
  type RegisteredUser,
  pageOn,
} from './fixtures';
import { turnOnEncryption } from './support/encryption';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { readMailTo, waitForMail } from './support/outbox';
import { startOwnServer, type OwnServer } from './support/own-server';
import { callApi } from './support/page-api';
import { signInAsRecipient } from './support/recipients';
import { recordMessage } from './support/recording';
import { expectCloudCopyPlays, requestCarries } from './support/sealed-messages';

// Enhanced encryption, second phase: with it on, a recipient's card (code and key) is made in the
// owner's browser and never sent; the recipient signs in with it on a new browser and watches the
// messages sealed for them. A recipient added before it was on is given a new card, and the
// messages sealed for them meanwhile are wrapped for it.

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1280, height: 800 },
} as const;

const recipientCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

function person(firstName: string) {
  return {
    firstName,
    lastName: 'Hughes',
    email: `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`,
  };
}

async function newDevice(
  browser: Browser,
  server: OwnServer,
  viewport: { width: number; height: number } = VIEWPORTS.laptop,
) {
  return pageOn(browser, server, { viewport });
}

/** Axe at both sizes, and a picture of each for a person to look at. */
async function scanAndShoot(page: Page, testInfo: TestInfo, label: string, isDialog = false) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, testInfo, `${label} (${name})`);
    await shoot(page, testInfo, `${label} ${viewport.width}`, isDialog);
  }
}

/** A picture of the page (of what is on screen for a dialog, which stays where it is). */
async function shoot(page: Page, testInfo: TestInfo, name: string, isOnScreenOnly = false) {
  const file = `${name.replace(/[^a-z0-9]+/gi, '-')}.png`;
  await page.screenshot({ path: testInfo.outputPath(file), fullPage: !isOnScreenOnly });
}

/** The owner turns it on as on the Enhanced encryption page, keeping the recovery sheet. */

const spellingsOf = (code: string) => [code, code.replace(/-/g, ''), code.replace(/-/g, ' ')];

test.describe.serial('sealed recipient cards', LONG_WAIT, () => {
  let server: OwnServer;
  let owner: RegisteredUser;
  let ownerPage: Page;
  const anna = person('Anna');
  const tom = person('Tom');
  let annaCode = '';
  let tomCode = '';
  const requests: Request[] = [];
  const watch = (context: BrowserContext) => context.on('request', (r) => requests.push(r));

  test.beforeAll(async () => {
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the owner turns it on with a recipient added before, who then needs a new card', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    ownerPage = await newDevice(browser, server);
    owner = await registerPremiumUser(ownerPage, server, { firstName: 'Edith' });
    // Tom was added before: the server made his code and emailed it.
    const added = await callApi<{ emergencyAccessCode: string | null }>(
      ownerPage,
      'POST',
      '/api/recipients',
      { ...tom, category: 'family' },
    );
    expect(added.emergencyAccessCode).toMatch(EMERGENCY_CODE_PATTERN);

    await turnOnEncryption(ownerPage, owner);
    // From here on, no request of any browser may carry a card's code.
    watch(ownerPage.context());

    await ownerPage.goto('/recipients');
    const card = recipientCard(ownerPage, 'Tom Hughes');
    await expect(card.getByText('Needs a new card')).toBeVisible();
    await expect(
      card.getByText(
        'Their code was made before enhanced encryption was turned on, so it cannot open sealed messages.',
      ),
    ).toBeVisible();
    await expect(
      card.getByRole('button', { name: 'Make a new card for Tom Hughes' }),
    ).toBeVisible();
    await expect(card.getByRole('button', { name: /Share access code/ })).toHaveCount(0);
    await scanAndShoot(ownerPage, testInfo, 'recipients page needs a new card');
    await ownerPage.setViewportSize(VIEWPORTS.laptop);
  });

  // The owner's page is the one kept from the first test: no fixture is used.
  // eslint-disable-next-line no-empty-pattern
  test('adding a recipient makes their card here: shown, printable, and never in the mail', async ({}, testInfo) => {
    test.setTimeout(120_000);
    await ownerPage.getByRole('button', { name: 'Add Recipient' }).click();
    const form = ownerPage.getByRole('dialog', { name: 'Add Recipient' });
    await expect(
      form.getByText('You get a card with their access code to print or share.'),
    ).toBeVisible();
    await form.getByLabel('First name').fill(anna.firstName);
    await form.getByLabel('Last name').fill(anna.lastName);
    await form.getByLabel('Email').fill(anna.email);
    await form.getByRole('radio', { name: /^Family/ }).check();
    await form.getByRole('button', { name: 'Add Recipient' }).click();

    const dialog = ownerPage.getByRole('dialog', { name: 'Anna’s Memento card' });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    const printable = dialog.getByRole('region', { name: 'Memento card for Anna Hughes' });
    annaCode = ((await printable.getByTestId('access-code').textContent()) ?? '').trim();
    expect(annaCode).toMatch(EMERGENCY_CODE_PATTERN);
    await expect(printable).toContainText(anna.email);
    await expect(printable).toContainText(`${server.url}/auth`);
    await expect(printable).toContainText('Memento cannot resend this code: keep it safe.');
    await expect(printable.getByRole('img', { name: /QR code/ })).toBeVisible();
    await scanAndShoot(ownerPage, testInfo, 'the new card', true);

    // Printed, the card is all there is, at the top of the page.
    await ownerPage.emulateMedia({ media: 'print' });
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await ownerPage.setViewportSize(viewport);
      const printedCode = ownerPage.getByTestId('access-code');
      await expect(printedCode).toBeVisible();
      await expect(printedCode).toHaveText(annaCode);
      expect((await printedCode.boundingBox())?.y).toBeLessThan(viewport.height / 2);
      await expect(ownerPage.getByRole('button', { name: 'Print card' })).toBeHidden();
      await expect(ownerPage.getByRole('heading', { name: 'Your Recipients' })).toBeHidden();
      await expect(ownerPage.getByText('Anna’s Memento card')).toBeHidden();
      await shoot(ownerPage, testInfo, `printed card ${name}`, true);
    }
    await ownerPage.emulateMedia({ media: 'screen' });
    await ownerPage.setViewportSize(VIEWPORTS.laptop);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(recipientCard(ownerPage, 'Anna Hughes')).toBeVisible();
    await expect(recipientCard(ownerPage, 'Anna Hughes').getByText('Needs a new card')).toHaveCount(
      0,
    );

    // Anna is told that a card is coming, never the code.
    const mail = await waitForMail(anna.email, /is recording video messages for you/, {
      dataDir: server.dataDir,
    });
    for (const spelling of spellingsOf(annaCode)) expect(mail.text).not.toContain(spelling);
  });

  test('messages recorded for both leave sealed, wrapped for Anna’s card only', async () => {
    test.setTimeout(240_000);
    await ownerPage.goto('/');
    await recordMessage(ownerPage, { recipientName: 'Anna Hughes', title: 'For Anna', seconds: 6 });
    await recordMessage(ownerPage, { recipientName: 'Tom Hughes', title: 'For Tom', seconds: 6 });
    for (const title of ['For Anna', 'For Tom']) {
      await expect(
        ownerPage.getByRole('main').getByRole('listitem').filter({ hasText: title }),
      ).toContainText('In the cloud and on this device', { timeout: 120_000 });
    }
    const created = requests
      .filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/uploads')
      .map((r) => r.postDataJSON() as { title: string; sealed?: Record<string, string> });
    const forAnna = created.find((body) => body.title === 'For Anna');
    const forTom = created.find((body) => body.title === 'For Tom');
    expect(forAnna?.sealed).toMatchObject({
      keyWrap: expect.any(String),
      recipientKeyWrap: expect.any(String),
    });
    expect(forTom?.sealed?.keyWrap).toEqual(expect.any(String));
    expect(forTom?.sealed?.recipientKeyWrap).toBeUndefined();
  });

  test('Anna signs in on a new browser with her card’s code and watches her message', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const phone = await newDevice(browser, server, VIEWPORTS.phone);
    watch(phone.context());
    await signInAsRecipient(phone, anna.email, annaCode);
    await expect(phone.getByRole('heading', { name: 'Messages for you' })).toBeVisible({
      timeout: 20_000,
    });
    const shared = phone.getByRole('listitem').filter({ hasText: 'For Anna' });
    await shared.getByRole('button', { name: /^Watch/ }).click();
    await expectCloudCopyPlays(shared.getByTestId('video-player'));
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await phone.setViewportSize(viewport);
      await shoot(phone, testInfo, `recipient watching ${name}`);
    }
  });

  test('Tom gets a new card: his message sealed earlier opens for it, from the card’s QR link', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    await ownerPage.goto('/recipients');
    const card = recipientCard(ownerPage, 'Tom Hughes');
    await card.getByRole('button', { name: 'Make a new card for Tom Hughes' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'A new card for Tom' });
    await expect(dialog.getByText('the old code stops working')).toBeVisible();
    await dialog.getByRole('button', { name: 'Make a new card' }).click();
    const shown = ownerPage.getByRole('dialog', { name: 'Tom’s Memento card' });
    await expect(shown).toBeVisible({ timeout: 20_000 });
    tomCode = ((await shown.getByTestId('access-code').textContent()) ?? '').trim();
    expect(tomCode).toMatch(EMERGENCY_CODE_PATTERN);
    await expect(shown.getByText('1 message ready for Tom’s card.')).toBeVisible({
      timeout: 30_000,
    });
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(card.getByText('Needs a new card')).toHaveCount(0);
    // Tom is told a new card is coming; his old code's mail stays the only one with a code.
    await waitForMail(tom.email, /Your new card/, { dataDir: server.dataDir });
    const mails = await readMailTo(tom.email, server.dataDir);
    for (const spelling of spellingsOf(tomCode)) {
      for (const mail of mails) expect(mail.text).not.toContain(spelling);
    }

    // The card's QR code opens the sign-in page filled in, and the code leaves the address bar.
    const phone = await newDevice(browser, server, VIEWPORTS.phone);
    watch(phone.context());
    await phone.goto('/favicon.svg');
    await phone.evaluate(() => {
      const acceptAll = { essential: true, analytics: true, marketing: true };
      localStorage.setItem(
        'cookieConsent',
        JSON.stringify({ ...acceptAll, timestamp: new Date().toISOString() }),
      );
    });
    const fragment = new URLSearchParams({ email: tom.email, code: tomCode.replace(/-/g, '') });
    await phone.goto(`/auth#${fragment}`);
    await expect(phone.getByLabel('Your email address')).toHaveValue(tom.email);
    await expect(phone.getByLabel('Access code', { exact: true })).not.toHaveValue('');
    expect(new URL(phone.url()).hash).toBe('');
    await phone.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(phone.getByRole('heading', { name: 'Messages for you' })).toBeVisible({
      timeout: 20_000,
    });
    const shared = phone.getByRole('listitem').filter({ hasText: 'For Tom' });
    await shared.getByRole('button', { name: /^Watch/ }).click();
    await expectCloudCopyPlays(shared.getByTestId('video-player'));
    await shoot(phone, testInfo, 'tom watching phone');
  });

  test('no request of any browser carried a card’s code', async () => {
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      for (const spelling of [...spellingsOf(annaCode), ...spellingsOf(tomCode)]) {
        expect(await requestCarries(request, spelling), `${request.url()} carries a code`).toBe(
          false,
        );
      }
    }
  });
});
