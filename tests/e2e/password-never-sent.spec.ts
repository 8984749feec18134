import { randomInt } from 'node:crypto';
import type { Page, Request } from '@playwright/test';
import {
  LONG_WAIT,
  expect,
  openApp,
  registerPremiumUser,
  signOutFromDashboard,
  submitSignIn,
  test,
} from './fixtures';
import { ENCRYPTION_MESSAGES } from '../../src/shared/schemas/encryption';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { readCode, readMailTo, waitForMail } from './support/outbox';
import { startOwnServer, type OwnServer } from './support/own-server';

// Once enhanced encryption is on, the owner's password and recovery code never leave the
// browser: sign-in and a password change send only what the browser derives from them. Every
// request the page makes is kept and searched.

const NEW_PASSWORD = 'Snowdrops-in-February-2028';
const RESET_PASSWORD = 'Primroses-in-March-2029';

/** Signs in with `password` and opens the encryption page. */
async function signInToEncryptionPage(
  page: Page,
  owner: { username: string; firstName: string },
  password: string,
) {
  await submitSignIn(page, { username: owner.username, password });
  await expect(page.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible({
    timeout: 30_000,
  });
  await page.goto('/encryption');
}

/** The texts a request carries: address, headers and body. */
function textOf(request: Request): string {
  const body = request.postDataBuffer()?.toString('utf8') ?? '';
  return `${request.method()} ${request.url()}\n${JSON.stringify(request.headers())}\n${body}`;
}

function spellingsOf(code: string): string[] {
  return [code, code.replace(/ /g, '-'), code.replace(/ /g, '')];
}

test.describe.serial('the password never leaves the browser', LONG_WAIT, () => {
  let server: OwnServer;

  test.beforeAll(async () => {
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('turn-on, sign-out, sign-in, a password change and unlocking send neither password nor the recovery code', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({
      baseURL: server.url,
      extraHTTPHeaders: {
        'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
      },
    });
    const page = await context.newPage();
    const owner = await registerPremiumUser(page, server, { firstName: 'Winifred' });
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));

    // Turning it on: the last time the password goes, for the one check against the old hash.
    await page.goto('/encryption');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('textbox', { name: 'Your password' }).fill(owner.password);
    await page.getByRole('button', { name: 'Turn on enhanced encryption' }).click();
    const sheet = page.getByRole('region', { name: 'Your Memento recovery sheet' });
    await expect(sheet).toBeVisible({ timeout: 30_000 });
    const recoveryCode = ((await sheet.getByTestId('recovery-code').textContent()) ?? '').trim();
    await page
      .getByRole('checkbox', { name: 'I have printed or written down my recovery sheet' })
      .check();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('heading', { name: 'Enhanced encryption is on' })).toBeVisible();
    const turnOn = requests.filter((request) => textOf(request).includes(owner.password));
    expect(turnOn.map((request) => new URL(request.url()).pathname)).toEqual(['/api/encryption']);
    const afterTurnOn = requests.length;

    // Signing out and in again: only the proof goes.
    await page.goto('/');
    await signOutFromDashboard(page);
    await submitSignIn(page, owner);
    await expect(page.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible({
      timeout: 30_000,
    });
    const signIn = requests.find(
      (request) => new URL(request.url()).pathname === '/api/login' && request.method() === 'POST',
    );
    expect(signIn?.postDataJSON()).toMatchObject({
      username: owner.username,
      passwordProof: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(signIn?.postDataJSON()).not.toHaveProperty('password');

    // Changing the password: both as proofs, and the account key moves to the new one.
    await page.getByRole('button', { name: 'Reset Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.getByLabel('Current password', { exact: true }).fill(owner.password);
    await dialog.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });
    await waitForMail(owner.email, /password was changed/, { dataDir: server.dataDir });

    // Out and in with the new password, then this device unlocked with it.
    await signOutFromDashboard(page);
    await signInToEncryptionPage(page, owner, NEW_PASSWORD);
    const unlock = page.getByRole('region', { name: 'Unlock sealed messages on this device' });
    await unlock.getByLabel('Your password').fill(NEW_PASSWORD);
    await unlock.getByRole('button', { name: 'Unlock this device' }).click();
    await expect(page.getByText('This device can open and send your sealed messages.')).toBeVisible(
      { timeout: 30_000 },
    );

    // Forgotten and reset by an emailed code: the new password does not open the messages until
    // a device holding the key (here, one unlocked with the recovery sheet) lets it.
    await page.goto('/');
    await signOutFromDashboard(page);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByRole('button', { name: 'Send Reset Code' }).click();
    const code = readCode(
      await waitForMail(owner.email, /password reset code/, { dataDir: server.dataDir }),
    );
    await page.getByLabel('Reset code', { exact: true }).fill(code);
    await page.getByLabel('New password', { exact: true }).fill(RESET_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(RESET_PASSWORD);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert', { name: 'Password Reset Successful' })).toBeVisible({
      timeout: 30_000,
    });
    await signInToEncryptionPage(page, owner, RESET_PASSWORD);
    await unlock.getByLabel('Your password').fill(RESET_PASSWORD);
    await unlock.getByRole('button', { name: 'Unlock this device' }).click();
    await expect(unlock.getByText(ENCRYPTION_MESSAGES.passwordWrapOld)).toBeVisible({
      timeout: 30_000,
    });
    await unlock.getByRole('button', { name: 'Use my recovery sheet instead' }).click();
    await unlock.getByLabel('Recovery code').fill(recoveryCode);
    await unlock.getByRole('button', { name: 'Unlock this device' }).click();
    const renew = page.getByRole('region', { name: 'Let your new password open your messages' });
    await renew.getByLabel('Your password').fill(RESET_PASSWORD);
    await renew.getByRole('button', { name: 'Use my password' }).click();
    await expect(renew).toBeHidden({ timeout: 30_000 });
    await expect(
      page.getByText('This device can open and send your sealed messages.'),
    ).toBeVisible();
    // Signed in afresh (this browser's key forgotten), the reset password unlocks by itself.
    await page.goto('/');
    await signOutFromDashboard(page);
    await signInToEncryptionPage(page, owner, RESET_PASSWORD);
    await unlock.getByLabel('Your password').fill(RESET_PASSWORD);
    await unlock.getByRole('button', { name: 'Unlock this device' }).click();
    await expect(page.getByText('This device can open and send your sealed messages.')).toBeVisible(
      { timeout: 30_000 },
    );

    const secrets = [owner.password, NEW_PASSWORD, RESET_PASSWORD, ...spellingsOf(recoveryCode)];
    for (const request of requests.slice(afterTurnOn)) {
      const text = textOf(request);
      for (const secret of secrets) {
        expect(text.includes(secret), `${request.url()} carries a secret`).toBe(false);
      }
    }
    // Nor the recovery code at turn-on, nor any email.
    for (const request of requests.slice(0, afterTurnOn)) {
      for (const spelling of spellingsOf(recoveryCode)) {
        expect(textOf(request).includes(spelling)).toBe(false);
      }
    }
    for (const mail of await readMailTo(owner.email, server.dataDir)) {
      for (const secret of secrets) expect(JSON.stringify(mail).includes(secret)).toBe(false);
    }
    await context.close();
  });

  test('an account without enhanced encryption signs in as before', async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    const owner = await registerPremiumUser(page, server, { firstName: 'Agatha' });
    await signOutFromDashboard(page);
    await openApp(page, '/auth');
    await submitSignIn(page, owner);
    await expect(page.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible({
      timeout: 30_000,
    });
    await context.close();
  });
});
