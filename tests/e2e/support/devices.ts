import type { Page } from '@playwright/test';
import { expect, openApp, submitSignIn } from '../fixtures';
import { readCode, waitForMail } from './outbox';

/**
 * Signs an owner in on a browser their account has not seen: 'Device Access Denied', then
 * 'Add this device' with the code emailed to them, until their dashboard welcomes them.
 */
export async function signInAddingThisDevice(
  page: Page,
  server: { dataDir: string },
  owner: { username: string; password: string; email: string; firstName: string },
): Promise<void> {
  await openApp(page, '/auth');
  await submitSignIn(page, owner);
  const denied = page.getByRole('alert').filter({ hasText: 'Device Access Denied' });
  await expect(denied).toBeVisible();
  await denied.getByRole('button', { name: 'Add this device' }).click();
  const mail = await waitForMail(owner.email, /code to add a device/, { dataDir: server.dataDir });
  await denied.getByLabel('Code from the email').fill(readCode(mail));
  await denied.getByRole('button', { name: 'Add this device' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible();
}

/**
 * Signs an owner in on a browser their account has not seen and moves the account there with the
 * emailed code ('Use this device instead'), until the dashboard has loaded afresh. `mailCount`:
 * how many such emails the owner has had by then (the newest one's code is used).
 */
export async function moveAccountHere(
  page: Page,
  server: { dataDir: string },
  owner: { username: string; password: string; email: string },
  mailCount = 1,
): Promise<void> {
  await openApp(page, '/auth');
  await submitSignIn(page, owner);
  const denied = page.getByRole('alert', { name: 'Device Access Denied' });
  await denied.getByRole('button', { name: 'Use this device instead' }).click();
  const mail = await waitForMail(owner.email, /code to use a new device/, {
    dataDir: server.dataDir,
    count: mailCount,
  });
  await denied.getByLabel('Code from the email', { exact: true }).fill(readCode(mail));
  // The move ends by opening the dashboard afresh (a whole page load).
  const moved = page.waitForEvent('load');
  await denied.getByRole('button', { name: 'Move my account here' }).click();
  await moved;
}
