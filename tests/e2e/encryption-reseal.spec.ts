import { randomUUID } from 'node:crypto';
import type { Browser } from '@playwright/test';
import {
  EMERGENCY_CODE_PATTERN,
  LONG_WAIT,
  expect,
  registerPremiumUser,
  test,
  pageOn,
} from './fixtures';
import { turnOnEncryption } from './support/encryption';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { callApi, storedCopyStart } from './support/page-api';
import { signInAsRecipient } from './support/recipients';
import { recordMessage } from './support/recording';

// A message that went to the cloud plain before enhanced encryption was on is sealed again from
// the owner's device once its recipient has a new card, and the recipient still watches it.

async function newDevice(browser: Browser, server: OwnServer, width = 1280, height = 800) {
  return pageOn(browser, server, { viewport: { width, height } });
}

test.describe.serial('sealing the messages already in the cloud', LONG_WAIT, () => {
  let server: OwnServer;

  test.beforeAll(async () => {
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a plain message waits for its recipient’s new card, is sealed again, and still plays', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(300_000);
    const page = await newDevice(browser, server);
    const owner = await registerPremiumUser(page, server, { firstName: 'Edith' });
    const tom = {
      firstName: 'Tom',
      lastName: 'Hughes',
      email: `tom-${randomUUID().slice(0, 8)}@example.test`,
    };
    await callApi(page, 'POST', '/api/recipients', { ...tom, category: 'family' });
    await page.goto('/');
    await recordMessage(page, { recipientName: 'Tom Hughes', title: 'For Tom', seconds: 6 });
    await expect(
      page.getByRole('main').getByRole('listitem').filter({ hasText: 'For Tom' }),
    ).toContainText('In the cloud and on this device', { timeout: 120_000 });
    const [video] = await callApi<Array<{ id: string }>>(page, 'GET', '/api/videos');
    const videoId = video!.id;
    expect((await storedCopyStart(page, server.url, videoId)).start).not.toBe('MMSV');

    await turnOnEncryption(page, owner);
    const section = page.getByRole('region', { name: 'Seal the messages already in the cloud' });
    await expect(
      section.getByText('1 message not yet sealed for Tom: give Tom a new card.'),
    ).toBeVisible();
    await expect(section.getByRole('link', { name: /Recipients page/ })).toBeVisible();
    await expectNoSeriousViolations(page, testInfo, 'seal the messages waiting for a card');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSeriousViolations(page, testInfo, 'seal the messages waiting for a card (phone)');
    await page.screenshot({ path: testInfo.outputPath('waiting-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await section.getByRole('link', { name: /Recipients page/ }).click();
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Tom Hughes' }) });
    await card.getByRole('button', { name: 'Make a new card for Tom Hughes' }).click();
    await page
      .getByRole('dialog', { name: 'A new card for Tom' })
      .getByRole('button', { name: 'Make a new card' })
      .click();
    const shown = page.getByRole('dialog', { name: 'Tom’s Memento card' });
    await expect(shown).toBeVisible({ timeout: 20_000 });
    const tomCode = ((await shown.getByTestId('access-code').textContent()) ?? '').trim();
    expect(tomCode).toMatch(EMERGENCY_CODE_PATTERN);
    await shown.getByRole('button', { name: 'Done' }).click();

    // Back on the page, sealing starts by itself.
    await page.goto('/encryption');
    await expect(section.getByText('The messages already in the cloud are sealed.')).toBeVisible({
      timeout: 90_000,
    });
    await expectNoSeriousViolations(page, testInfo, 'seal the messages done');
    await page.screenshot({ path: testInfo.outputPath('sealed-laptop.png'), fullPage: true });
    expect((await storedCopyStart(page, server.url, videoId)).start).toBe('MMSV');

    const phone = await newDevice(browser, server, 390, 844);
    await signInAsRecipient(phone, tom.email, tomCode);
    await expect(phone.getByRole('heading', { name: 'Messages for you' })).toBeVisible({
      timeout: 20_000,
    });
    const shared = phone.getByRole('listitem').filter({ hasText: 'For Tom' });
    await shared.getByRole('button', { name: /^Watch/ }).click();
    const player = shared.getByTestId('video-player');
    await expect(player).toHaveAttribute('data-source', 'cloud', { timeout: 30_000 });
    await expect
      .poll(() => player.evaluate((v) => (v as HTMLVideoElement).duration), { timeout: 20_000 })
      .toBeGreaterThan(3);
  });
});
