import type { Page } from '@playwright/test';
import { expect, openApp, registerUser, test } from './fixtures';
import { recordFor } from './support/recording';

declare global {
  interface Window {
    /** Every text a live region came to hold, in order, since `listenToLiveRegions`. */
    __heard?: string[];
  }
}

/**
 * From now on, notes each text that a live region (a status, an alert, any `aria-live` but
 * 'off') comes to hold: what a screen reader is given to say.
 */
async function listenToLiveRegions(page: Page) {
  await page.evaluate(() => {
    const heard: string[] = [];
    window.__heard = heard;
    const note = () => {
      const regions = document.querySelectorAll(
        ':is([aria-live], [role="status"], [role="alert"]):not([aria-live="off"])',
      );
      for (const region of regions) {
        const text = region.textContent?.trim();
        if (text && !heard.includes(text)) heard.push(text);
      }
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
}

const heard = (page: Page) => page.evaluate(() => window.__heard ?? []);

test('saving a recording is announced, and the dashboard opens with focus on its heading', async ({
  page,
}) => {
  test.slow();
  const owner = await registerUser(page, { firstName: 'Edith' });
  const welcome = page.getByRole('heading', { level: 1, name: `Welcome, ${owner.firstName}` });
  // A page opened by its address leaves focus where the browser put it.
  await expect(welcome).not.toBeFocused();

  await page.getByRole('link', { name: 'Record New Video Message' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Record a Message' })).toBeFocused();
  await page.getByLabel('Message title').fill('Happy birthday');
  await page.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });
  await recordFor(page, 2);

  await listenToLiveRegions(page);
  await page.getByRole('button', { name: 'Save Message' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(welcome).toBeFocused();
  const announced = await heard(page);
  expect(announced).toContainEqual(expect.stringMatching(/^Saving your message/));
  expect(announced).toContainEqual(expect.stringMatching(/^Your message is saved/));
  expect(
    announced.findIndex((text) => text.startsWith('Saving your message')),
    'saving is said before saved',
  ).toBeLessThan(announced.findIndex((text) => text.startsWith('Your message is saved')));
});

test.describe('following a link moves focus to the new page’s heading', () => {
  test('in the header, on a laptop, and back again', async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await openApp(page, '/about');
    const about = page.getByRole('heading', { level: 1, name: 'About', exact: true });
    await expect(about).toBeVisible();
    await expect(about).not.toBeFocused();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
    ).toBeFocused();
    // The heading is where reading starts, not a stop of its own on the way through by Tab.
    await expect(
      page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
    ).toHaveAttribute('tabindex', '-1');

    await page.goBack();
    await expect(about).toBeFocused();
  });

  test('in the menu, on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openApp(page, '/faq');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('dialog', { name: 'Menu' })
      .getByRole('link', { name: 'Counselling & Support' })
      .click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Wellbeing and Support Resources' }),
    ).toBeFocused();
  });
});

test('the dashboard’s Community Edition notice is a note, not an alert that interrupts', async ({
  page,
}) => {
  await registerUser(page);
  const notice = page.getByRole('region', { name: 'Community Edition - Local Storage' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('saved only on this device');
  await expect(page.getByRole('alert', { name: 'Community Edition - Local Storage' })).toHaveCount(
    0,
  );
});

test('no page asks the browser to evaluate code, which the content security policy forbids', async ({
  page,
}) => {
  test.slow();
  const reports: string[] = [];
  page.on('console', (message) => reports.push(`${message.type()}: ${message.text()}`));
  // Firefox and WebKit report a refused eval only as this event; Chromium also in its console.
  await page.addInitScript(() => {
    window.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content security policy violation: ${event.violatedDirective} blocked ${event.blockedURI} in ${event.sourceFile}`,
      );
    });
  });

  // Each form below is checked by zod: its schemas are built by the time its messages show.
  await openApp(page, '/auth?mode=community');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();

  await page.goto('/auth');
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await page.getByRole('button', { name: 'Send Reset Code' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();

  await page.goto('/features');
  await expect(page.getByRole('heading', { level: 1, name: 'Features & Pricing' })).toBeVisible();

  await registerUser(page);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Password' });
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(dialog.getByText('Current password is required')).toBeVisible();

  await page.goto('/record');
  await expect(page.getByRole('heading', { level: 1, name: 'Record a Message' })).toBeVisible();

  expect(reports.filter((report) => /eval/i.test(report))).toEqual([]);
});
