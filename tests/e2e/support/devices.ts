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
