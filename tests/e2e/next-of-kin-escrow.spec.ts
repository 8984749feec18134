import type { Browser, Locator, Page, Request, TestInfo } from '@playwright/test';
import {
  EMERGENCY_CODE_PATTERN,
  LONG_WAIT,
  expect,
  openApp,
  registerPremiumUser,
  reloadAfterRestart,
  test,
  type RegisteredUser,
  pageOn,
} from './fixtures';
import { turnOnEncryption } from './support/encryption';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { readLink, waitForMail } from './support/outbox';
import { startOwnServer, type OwnServer } from './support/own-server';
import { signInAsRecipient } from './support/recipients';
import { recordMessage } from './support/recording';
import { signInAddingThisDevice } from './support/devices';

// The next of kin's way back: with enhanced encryption on, the owner gives their next of kin a
// new emergency card made in the browser, which also carries the account key for the server to
// withhold. After break-glass, on a device that has never held the key, the owner's account
// starts a key recovery with the card (the owner's email can stop it); once a waiting period has
// run out unanswered, the card opens the owner's sealed library there.

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
const NEW_PASSWORD = 'Bluebells&Scones-2028';

async function newDevice(browser: Browser, server: OwnServer, viewport = LAPTOP) {
  return pageOn(browser, server, { viewport });
}

async function scanAtBothSizes(page: Page, testInfo: TestInfo, label: string) {
  for (const [name, viewport] of Object.entries({ phone: PHONE, laptop: LAPTOP })) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, testInfo, `${label} (${name})`);
  }
  await page.setViewportSize(LAPTOP);
}

/** The owner turns it on as on the Enhanced encryption page, keeping the recovery sheet. */

/** Whether a request carries this text in its address (never its fragment), headers or body. */
async function carries(request: Request, text: string): Promise<boolean> {
  const url = new URL(request.url());
  url.hash = '';
  const headers = JSON.stringify(await request.allHeaders().catch(() => request.headers()));
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  return url.href.includes(text) || headers.includes(text) || body.includes(text);
}

async function expectCloudCopyPlays(player: Locator) {
  await expect(player).toHaveAttribute('data-source', 'cloud', { timeout: 30_000 });
  await expect
    .poll(() => player.evaluate((video) => (video as HTMLVideoElement).duration), {
      timeout: 20_000,
    })
    .toBeGreaterThan(3);
}

test.describe.serial('the next of kin’s way back', LONG_WAIT, () => {
  let server: OwnServer;
  let owner: RegisteredUser;
  let ownerPage: Page;
  let kinPage: Page;
  let tablet: Page;
  let kinCode = '';
  let kinName = '';
  const requests: Request[] = [];
  const watch = (page: Page) => page.context().on('request', (r) => requests.push(r));

  test.beforeAll(async () => {
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the owner gives the next of kin a new emergency card and records a sealed message', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(240_000);
    ownerPage = await newDevice(browser, server);
    owner = await registerPremiumUser(ownerPage, server, { firstName: 'Edith' });
    kinName = `${owner.nextOfKin.firstName} ${owner.nextOfKin.lastName}`;
    await turnOnEncryption(ownerPage, owner);

    // The code the server made at sign-up cannot hold the key: the page says so, and why.
    await ownerPage.goto('/recipients');
    const card = ownerPage
      .getByRole('listitem')
      .filter({ has: ownerPage.getByRole('heading', { name: kinName }) });
    await expect(card.getByText('Needs a new card')).toBeVisible();
    await expect(
      card.getByText(/nor your account if you ever lose your password, your devices/),
    ).toBeVisible();
    await scanAtBothSizes(ownerPage, testInfo, 'the next of kin needs a new card');
    await card.getByRole('button', { name: `Make a new card for ${kinName}` }).click();
    await ownerPage
      .getByRole('dialog', { name: `A new card for ${owner.nextOfKin.firstName}` })
      .getByRole('button', { name: 'Make a new card' })
      .click();
    const shown = ownerPage.getByRole('dialog', {
      name: `${owner.nextOfKin.firstName}’s Memento card`,
    });
    await expect(shown).toBeVisible({ timeout: 20_000 });
    kinCode = ((await shown.getByTestId('access-code').textContent()) ?? '').trim();
    expect(kinCode).toMatch(EMERGENCY_CODE_PATTERN);
    watch(ownerPage);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(card.getByText('Needs a new card')).toHaveCount(0);

    await ownerPage.goto('/');
    await recordMessage(ownerPage, {
      recipientName: kinName,
      title: 'Sealed for later',
      seconds: 6,
    });
    await expect(
      ownerPage.getByRole('main').getByRole('listitem').filter({ hasText: 'Sealed for later' }),
    ).toContainText('In the cloud and on this device', { timeout: 120_000 });
  });

  test('after break-glass, the owner’s account starts a key recovery with the card; the email stops it', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(240_000);
    // The next of kin sets a new password for Edith with their emergency card.
    const helper = await newDevice(browser, server);
    watch(helper);
    await openApp(helper, '/auth');
    await helper.getByRole('button', { name: 'Emergency access for next of kin' }).click();
    await helper.getByLabel('Your email').fill(owner.nextOfKin.email);
    await helper.getByLabel('Emergency code', { exact: true }).fill(kinCode);
    await helper.getByLabel('New password for their account', { exact: true }).fill(NEW_PASSWORD);
    const confirm = helper.getByLabel('Confirm new password');
    if ((await confirm.count()) > 0) await confirm.fill(NEW_PASSWORD);
    await helper.getByRole('button', { name: 'Reset Password' }).click();
    await expect(helper.getByText(/The password has been reset/).first()).toBeVisible({
      timeout: 20_000,
    });

    // A device that never held the key signs in with the new password.
    tablet = await newDevice(browser, server);
    watch(tablet);
    await signInAddingThisDevice(tablet, server, { ...owner, password: NEW_PASSWORD });

    await tablet.goto('/encryption');
    await expect(
      tablet.getByRole('region', { name: 'Unlock sealed messages on this device' }),
    ).toBeVisible();
    await tablet.getByRole('button', { name: 'Use my next of kin’s emergency card' }).click();
    const byCard = tablet.getByRole('region', { name: 'With your next of kin’s emergency card' });
    await byCard.getByLabel('Next of kin’s email').fill(owner.nextOfKin.email);
    await byCard.getByLabel('Emergency code').fill(kinCode);
    // Nobody released the legacy: the card opens the messages only after a wait, started here.
    await byCard.getByRole('button', { name: 'Unlock with the emergency card' }).click();
    await expect(byCard.getByText(/only after a waiting period/)).toBeVisible({ timeout: 20_000 });
    const offer = tablet.getByRole('region', { name: 'Start the 7-day wait' });
    await offer.getByRole('button', { name: 'Start the wait' }).click();
    const started = tablet.getByRole('region', { name: 'Key recovery started' });
    await expect(started).toContainText(/opens your messages on \w+day/, { timeout: 20_000 });
    await scanAtBothSizes(tablet, testInfo, 'a key recovery waiting');

    // Edith, well after all, stops it with one click from her email.
    const warning = await waitForMail(owner.email, /Someone asked to open your sealed/, {
      dataDir: server.dataDir,
    });
    await helper.goto(readLink(warning, `${server.url}/key-recovery/cancel#`));
    await expect(helper.getByRole('heading', { name: 'Stop the key recovery' })).toBeVisible();
    await scanAtBothSizes(helper, testInfo, 'the stop link');
    await helper.getByRole('button', { name: 'Stop this key recovery' }).click();
    await expect(helper.getByText('The key recovery is stopped.')).toBeVisible();
    await tablet.reload();
    await tablet.getByRole('button', { name: 'Use my next of kin’s emergency card' }).click();
    await expect(started).toHaveCount(0);

    // Asked again from the tablet, it waits once more.
    await byCard.getByLabel('Next of kin’s email').fill(owner.nextOfKin.email);
    await byCard.getByLabel('Emergency code').fill(kinCode);
    await byCard.getByRole('button', { name: 'Unlock with the emergency card' }).click();
    await offer.getByRole('button', { name: 'Start the wait' }).click({ timeout: 20_000 });
    await expect(started).toBeVisible({ timeout: 20_000 });
  });

  test('the next of kin asks for the legacy release, and both waiting periods run out', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    kinPage = await newDevice(browser, server, PHONE);
    watch(kinPage);
    await signInAsRecipient(kinPage, owner.nextOfKin.email, kinCode);
    await kinPage
      .getByRole('button', { name: "Ask to release Edith's legacy" })
      .click({ timeout: 30_000 });
    const form = kinPage.getByRole('form', { name: "Ask to release Edith's legacy" });
    await form.getByLabel('Emergency code').fill(kinCode);
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(kinPage.getByText(/Unless Edith cancels, it is released on/)).toBeVisible();

    // The waiting period ends while the server is down; the legacy check runs once it is back.
    await server.writeWhileStopped(
      `with ended as (
         update legacy_releases set releases_at = now() - interval '1 minute'
          where status = 'waiting' returning id),
       recovered as (
         update key_recoveries set opens_at = now() - interval '1 minute'
          where status = 'waiting' returning id)
       update scheduled_jobs set next_run_at = now() - interval '1 minute'
        where name = 'legacy' and exists (select 1 from ended)`,
      [],
    );
    await expect
      .poll(
        async () => {
          await reloadAfterRestart(kinPage);
          return kinPage
            .getByText("Edith's legacy was released")
            .waitFor({ timeout: 5_000 })
            .then(
              () => true,
              () => false,
            );
        },
        { timeout: 60_000 },
      )
      .toBe(true);
  });

  test('once the wait is over, the emergency card opens the sealed library on the tablet', async ({
    browserName: _browserName,
  }, testInfo) => {
    test.setTimeout(180_000);
    await reloadAfterRestart(tablet);
    await tablet.getByRole('button', { name: 'Use my next of kin’s emergency card' }).click();
    await expect(tablet.getByRole('region', { name: 'The wait is over' })).toBeVisible({
      timeout: 20_000,
    });
    const byCard = tablet.getByRole('region', { name: 'With your next of kin’s emergency card' });
    await byCard.getByLabel('Next of kin’s email').fill(owner.nextOfKin.email);
    // A mistyped code opens nothing, and says so.
    const wrong = kinCode.startsWith('A') ? `B${kinCode.slice(1)}` : `A${kinCode.slice(1)}`;
    await byCard.getByLabel('Emergency code').fill(wrong);
    await byCard.getByRole('button', { name: 'Unlock with the emergency card' }).click();
    await expect(byCard.getByText('The email address or emergency code is not right')).toBeVisible({
      timeout: 20_000,
    });
    await scanAtBothSizes(tablet, testInfo, 'unlocking with the emergency card');
    await byCard.getByLabel('Emergency code').fill(kinCode);
    await byCard.getByRole('button', { name: 'Unlock with the emergency card' }).click();
    await expect(
      tablet.getByText('This device can open and send your sealed messages.'),
    ).toBeVisible({ timeout: 20_000 });

    await tablet.goto('/');
    const message = tablet.getByRole('listitem').filter({ hasText: 'Sealed for later' });
    await message.getByRole('button', { name: /^Play/ }).click();
    await expectCloudCopyPlays(message.getByTestId('video-player'));
  });

  test('no request of any browser carried the emergency code', async () => {
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      for (const spelling of [kinCode, kinCode.replace(/-/g, ''), kinCode.replace(/-/g, ' ')]) {
        expect(await carries(request, spelling), `${request.url()} carries the code`).toBe(false);
      }
    }
  });
});
