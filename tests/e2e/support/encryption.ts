import type { Page } from '@playwright/test';
import { expect, type RegisteredUser } from '../fixtures';

/** The owner turns enhanced encryption on at /encryption and says the recovery sheet is kept. */
export async function turnOnEncryption(page: Page, owner: RegisteredUser) {
  await page.goto('/encryption');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Your password' }).fill(owner.password);
  await page.getByRole('button', { name: 'Turn on enhanced encryption' }).click();
  await expect(page.getByRole('region', { name: 'Your Memento recovery sheet' })).toBeVisible({
    timeout: 20_000,
  });
  await page
    .getByRole('checkbox', { name: 'I have printed or written down my recovery sheet' })
    .check();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name: 'Enhanced encryption is on' })).toBeVisible();
}
