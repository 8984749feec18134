import type { Page } from '@playwright/test';
import { openApp } from '../fixtures';

/** Signs in on /auth with the recipient method: email plus access code. */
export async function signInAsRecipient(page: Page, email: string, code: string): Promise<void> {
  await openApp(page, '/auth');
  await page.getByRole('radio', { name: /Recipient email and access code/ }).check();
  await page.getByLabel('Your email address').fill(email);
  await page.getByLabel('Access code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}
