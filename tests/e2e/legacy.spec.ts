import { randomInt } from 'node:crypto';
import type { Browser, Page, TestInfo } from '@playwright/test';
import {
  LONG_WAIT_ON_ENGINE,
  expect,
  openApp,
  registerPremiumUser,
  reloadAfterRestart,
  test,
  toastMessage,
  type RegisteredUser,
} from './fixtures';
import { expectNoSeriousViolations, saveShotIfAsked } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { readLink, waitForMail } from './support/outbox';
import { startOwnServer, type OwnServer } from './support/own-server';
import { signInAsRecipient } from './support/recipients';
import { recordFor } from './support/recording';

// Legacy release: a message that opens on a date, one kept for after the owner's legacy is
// released, a next of kin's request the owner cancels from the email link, and a second one
// that runs out. On a server of the test's own: the waiting period is run out by writing the
// database while it is stopped, as a server that was down when the time came finds it.

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

async function newDevice(browser: Browser, server: OwnServer, viewport = LAPTOP) {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport,
    extraHTTPHeaders: {
      'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
    },
  });
  return context.newPage();
}

/** Axe at a phone's and a laptop's size; with E2E_SHOTS_DIR set, a screenshot of each. */
async function checkScreen(page: Page, testInfo: TestInfo, name: string) {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, testInfo, `${name} (${size})`);
    await saveShotIfAsked(page, name);
  }
}

/** A day a year ahead as the date field takes it, and as the pages write it. */
function dayNextYear() {
  const day = new Date();
  day.setFullYear(day.getFullYear() + 1);
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    field: `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`,
    words: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long' }).format(day),
  };
}

async function recordWithRelease(
  page: Page,
  options: { title: string; release: 'On a date' | 'After my legacy is released'; date?: string },
) {
  await page.getByRole('link', { name: 'Record New Video Message' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Record a Message' })).toBeVisible();
  await page.getByLabel('Message title').fill(options.title);
  await page.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });
  const choice = page.getByRole('group', { name: 'When can they watch?' });
  await expect(choice.getByRole('radio', { name: 'Now' })).toBeChecked();
  await choice.getByRole('radio', { name: options.release }).check();
  if (options.date) await choice.getByLabel('The date it opens').fill(options.date);
  await recordFor(page, 3);
  await page.getByRole('button', { name: 'Save Message' }).click();
  await expect(toastMessage(page, 'Video saved')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}

test.describe.serial('legacy release', LONG_WAIT_ON_ENGINE, () => {
  let server: OwnServer;
  let owner: RegisteredUser;
  let ownerPage: Page;
  let kinPage: Page;
  const opensOn = dayNextYear();

  test.beforeAll(async () => {
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the owner records a message that opens on a date and one for after their legacy', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    ownerPage = await newDevice(browser, server);
    owner = await registerPremiumUser(ownerPage, server, { firstName: 'Edith' });

    await recordWithRelease(ownerPage, {
      title: 'For your wedding day',
      release: 'On a date',
      date: opensOn.field,
    });
    await recordWithRelease(ownerPage, {
      title: 'When I am gone',
      release: 'After my legacy is released',
    });
    for (const title of ['For your wedding day', 'When I am gone']) {
      await expect(ownerPage.getByRole('listitem').filter({ hasText: title })).toContainText(
        'In the cloud and on this device',
        { timeout: 60_000 },
      );
    }

    await expect(
      ownerPage.getByRole('listitem').filter({ hasText: 'When I am gone' }),
    ).toContainText('Opens after your legacy is released');

    // Legacy release settings: recipients may see what waits for them.
    await ownerPage.getByRole('link', { name: 'Legacy release' }).click();
    await expect(
      ownerPage.getByRole('heading', { level: 1, name: 'Legacy release' }),
    ).toBeVisible();
    await expect(ownerPage.getByLabel('Waiting period in days')).toHaveValue('7');
    await expect(ownerPage.getByRole('radio', { name: 'Off' })).toBeChecked();
    await ownerPage
      .getByRole('checkbox', { name: 'Let recipients see that a message is waiting for them' })
      .check();
    await ownerPage.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toastMessage(ownerPage, 'Legacy release settings saved')).toBeVisible();
    await expect(ownerPage.getByText('Nobody has asked to release your legacy.')).toBeVisible();
    await checkScreen(ownerPage, testInfo, 'legacy-settings');

    // Each message in the library says when it opens, and changes in place.
    await ownerPage.goto('/recipients');
    const kin = `${owner.nextOfKin.firstName} ${owner.nextOfKin.lastName}`;
    await ownerPage
      .getByRole('listitem')
      .filter({ has: ownerPage.getByRole('heading', { name: kin }) })
      .getByRole('button', { name: /View Videos/ })
      .click();
    const videos = ownerPage.getByRole('dialog');
    const dated = videos.getByRole('listitem').filter({ hasText: 'For your wedding day' });
    await expect(dated).toContainText(`Opens on ${opensOn.words}`);
    await expect(videos.getByRole('listitem').filter({ hasText: 'When I am gone' })).toContainText(
      'Opens after your legacy is released',
    );
    await dated
      .getByRole('button', { name: 'Change when they can watch For your wedding day' })
      .click();
    await expect(dated.getByRole('radio', { name: 'On a date' })).toBeChecked();
    await expect(dated.getByLabel('The date it opens')).toHaveValue(opensOn.field);
    await checkScreen(ownerPage, testInfo, 'library-release-form');
    await dated.getByRole('button', { name: 'Cancel' }).click();
  });

  test('the next of kin sees what waits for them and asks to release the legacy', async ({
    browser,
  }, testInfo) => {
    kinPage = await newDevice(browser, server, PHONE);
    await signInAsRecipient(kinPage, owner.nextOfKin.email, owner.emergencyCode);
    await expect(kinPage.getByRole('heading', { name: 'Messages for you' })).toBeVisible();
    await expect(
      kinPage.getByText(`A message from Edith is waiting for you. It opens on ${opensOn.words}.`),
    ).toBeVisible();
    await expect(
      kinPage.getByText(
        "A message from Edith is waiting for you. It opens when Edith's legacy is released.",
      ),
    ).toBeVisible();
    await expect(kinPage.getByRole('button', { name: /^Watch/ })).toHaveCount(0);

    await kinPage.getByRole('button', { name: "Ask to release Edith's legacy" }).click();
    const form = kinPage.getByRole('form', { name: "Ask to release Edith's legacy" });
    await expect(form).toContainText('Edith is emailed at once');
    await checkScreen(kinPage, testInfo, 'recipient-home-ask');
    await form.getByLabel('Emergency code').fill('ABCD-EFGH-JKLM-NP23');
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(
      form.getByText('That emergency code is not right. Please check it and try again.'),
    ).toBeVisible();
    await form.getByLabel('Emergency code').fill(owner.emergencyCode);
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(kinPage.getByText(/Unless Edith cancels, it is released on/)).toBeVisible();
    await checkScreen(kinPage, testInfo, 'recipient-home-waiting');
  });

  test('the owner sees the waiting release and cancels it from the email link', async ({
    browser,
  }, testInfo) => {
    await ownerPage.goto('/');
    const banner = ownerPage.getByRole('status').filter({
      hasText: `${owner.nextOfKin.firstName} ${owner.nextOfKin.lastName} asked to release your legacy on`,
    });
    await expect(banner).toContainText('Unless you cancel, it is released on');
    await expect(banner.getByRole('button', { name: 'Cancel this release' })).toBeVisible();
    await checkScreen(ownerPage, testInfo, 'owner-banner');

    const mail = await waitForMail(owner.email, /has asked to release your Memento legacy/, {
      dataDir: server.dataDir,
    });
    const link = readLink(mail, `${server.url}/legacy/cancel#`);
    const fromMail = await newDevice(browser, server, PHONE);
    await fromMail.goto(link);
    await expect(
      fromMail.getByRole('heading', { level: 1, name: 'Cancel the legacy release' }),
    ).toBeVisible();
    await checkScreen(fromMail, testInfo, 'cancel-link');
    // Opening the link changed nothing: the banner is still there.
    await ownerPage.reload();
    await expect(banner).toBeVisible();

    await fromMail.getByRole('button', { name: 'Cancel this release' }).click();
    await expect(
      fromMail.getByText('The release is cancelled. Your messages stay as they are.'),
    ).toBeVisible();
    await fromMail.reload();
    await fromMail.getByRole('button', { name: 'Cancel this release' }).click();
    await expect(
      fromMail.getByText(/This link has already been used or has expired/),
    ).toBeVisible();

    await ownerPage.reload();
    await expect(
      ownerPage.getByRole('heading', { name: `Welcome, ${owner.firstName}` }),
    ).toBeVisible();
    await expect(banner).toBeHidden();
    // After a cancel the same next of kin waits before asking again, and is told until when.
    await kinPage.reload();
    await expect(
      kinPage.getByText(/^Edith cancelled the last request\. You can ask again on /),
    ).toBeVisible();
    await expect(
      kinPage.getByRole('button', { name: "Ask to release Edith's legacy" }),
    ).toHaveCount(0);
  });

  test('a second request runs out unanswered and the next of kin watches the message', async () => {
    test.setTimeout(180_000);
    // A month on, the pause after the cancel is over.
    await server.writeWhileStopped(
      `update legacy_releases set cancelled_at = cancelled_at - interval '31 days'
        where status = 'cancelled'`,
      [],
    );
    await reloadAfterRestart(kinPage);
    await kinPage
      .getByRole('button', { name: "Ask to release Edith's legacy" })
      .click({ timeout: 30_000 });
    const form = kinPage.getByRole('form', { name: "Ask to release Edith's legacy" });
    await form.getByLabel('Emergency code').fill(owner.emergencyCode);
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(kinPage.getByText(/Unless Edith cancels, it is released on/)).toBeVisible();

    // The waiting period ends while the server is down; the legacy check runs once it is back.
    await server.writeWhileStopped(
      `with ended as (
         update legacy_releases set releases_at = now() - interval '1 minute'
          where status = 'waiting' returning id)
       update scheduled_jobs set next_run_at = now() - interval '1 minute'
        where name = 'legacy' and exists (select 1 from ended)`,
      [],
    );
    // Each look reloads, then gives the page time for its answer: the page paints before it asks,
    // so a look straight after the reload found the release not drawn yet, every time.
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
    await expect(kinPage.getByRole('heading', { name: 'What happened' })).toBeVisible();
    await expect(kinPage.getByText(/asked to release the legacy/).first()).toBeVisible();

    const message = kinPage.getByRole('listitem').filter({ hasText: 'When I am gone' });
    await message.getByRole('button', { name: /^Watch/ }).click();
    const player = kinPage.getByTestId('video-player');
    await expect(player).toHaveAttribute('data-source', 'cloud');
    await expect
      .poll(() => player.evaluate((video) => (video as HTMLVideoElement).duration), {
        timeout: 20_000,
      })
      .toBeGreaterThan(1);
    // The dated message still waits.
    await expect(
      kinPage.getByText(`A message from Edith is waiting for you. It opens on ${opensOn.words}.`),
    ).toBeVisible();
  });

  // eslint-disable-next-line no-empty-pattern
  test('the owner, alive after all, ends the release from their account', async ({}, testInfo) => {
    await ownerPage.goto('/legacy');
    await expect(ownerPage.getByText(/Your legacy was released on/)).toBeVisible();
    await ownerPage.getByRole('button', { name: 'End the release' }).click();
    const confirm = ownerPage.getByRole('region', { name: 'End the release of your legacy?' });
    await expect(confirm).toContainText('1 message has opened, and 1 has been watched.');
    await expect(confirm).toContainText('A message someone has already watched stays open');
    await checkScreen(ownerPage, testInfo, 'legacy-end-confirm');
    // Changing their mind changes nothing.
    await confirm.getByRole('button', { name: 'Keep it released' }).click();
    await expect(confirm).toBeHidden();
    await ownerPage.getByRole('button', { name: 'End the release' }).click();
    await confirm.getByRole('button', { name: 'Yes, end the release' }).click();
    await expect(ownerPage.getByText(/You ended the release of your legacy on/)).toBeVisible();

    // Who may ask: Susan waits a month before asking again; Edith can stop her altogether.
    const asker = ownerPage.getByRole('listitem').filter({ hasText: owner.nextOfKin.lastName });
    await expect(asker).toContainText(/can ask again on/);
    await asker
      .getByRole('button', { name: `Stop ${owner.nextOfKin.firstName} from asking` })
      .click();
    await expect(asker).toContainText(`You have stopped ${owner.nextOfKin.firstName} from asking.`);
    await checkScreen(ownerPage, testInfo, 'legacy-ended');

    // The message Susan watched stays with her; she cannot ask again.
    await kinPage.reload();
    await expect(
      kinPage.getByText('Edith has turned off requests from you to release their legacy.', {
        exact: false,
      }),
    ).toBeVisible();
    await expect(kinPage.getByRole('listitem').filter({ hasText: 'When I am gone' })).toBeVisible();
    await expect(
      kinPage.getByRole('button', { name: "Ask to release Edith's legacy" }),
    ).toHaveCount(0);
    await checkScreen(kinPage, testInfo, 'recipient-home-stopped');
    const mail = await waitForMail(owner.nextOfKin.email, /has ended the release/, {
      dataDir: server.dataDir,
    });
    expect(mail).toBeTruthy();
  });
});

// The cancel page is public: nothing on it needs a sign-in, and opening it does nothing.
test('the cancel page without a token says so', async ({ page }) => {
  await openApp(page, '/legacy/cancel');
  await expect(page.getByText('This link is not complete')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel this release' })).toHaveCount(0);
});
