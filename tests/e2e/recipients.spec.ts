import type { Page } from '@playwright/test';
import { EMERGENCY_CODE_PATTERN, expect, registerUser, test, toastMessage } from './fixtures';
import { readCode, waitForMail } from './support/outbox';
import { signInAsRecipient } from './support/recipients';
import { randomUUID } from 'node:crypto';

const recipientCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

async function addRecipient(
  page: Page,
  person: { firstName: string; lastName: string; email: string; category: 'Family' | 'Friend' },
) {
  await page.getByRole('button', { name: 'Add Recipient' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Recipient' });
  await dialog.getByLabel('First name').fill(person.firstName);
  await dialog.getByLabel('Last name').fill(person.lastName);
  await dialog.getByLabel('Email').fill(person.email);
  await dialog.getByRole('radio', { name: new RegExp(`^${person.category}`) }).check();
  await dialog.getByRole('button', { name: 'Add Recipient' }).click();
}

test('a primary user adds a recipient, shares the code, meets the free limit, reshares and removes', async ({
  page,
  newDevice,
}) => {
  test.slow();
  await registerUser(page, { firstName: 'Margaret' });
  await page.getByRole('link', { name: 'Manage Recipients' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your Recipients' })).toBeVisible();
  await expect(
    page.getByText('Your plan includes your next of kin and 1 more recipient (0 of 1 used).'),
  ).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Memento plans' })).toBeVisible();

  // Bad input is answered on the form and nothing is sent.
  await page.getByRole('button', { name: 'Add Recipient' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add Recipient' });
  await dialog.getByLabel('Email').fill('tom-at-home');
  await dialog.getByRole('button', { name: 'Add Recipient' }).click();
  await expect(dialog.getByText('First name is required')).toBeVisible();
  await expect(
    dialog.getByText('Please enter a valid email address (e.g., name@example.com)'),
  ).toBeVisible();
  await expect(dialog.getByText('Please select a category')).toBeVisible();
  await dialog.getByLabel('Last name').fill('Someone else');

  // Opened again straight away, it is empty, and what is typed at once stays: an old reset,
  // timed 300 ms after closing, once wiped it. The page's clock stands still meanwhile, so
  // "straight away" does not depend on how busy the machine is.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 60_000);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Add Recipient' }).click();
  await expect(dialog.getByText('First name is required')).toHaveCount(0);
  await expect(dialog.getByLabel('Last name')).toHaveValue('');
  await dialog.getByLabel('First name').fill('Tom');
  await page.clock.runFor(1_000);
  await expect(dialog.getByLabel('First name')).toHaveValue('Tom');
  await page.clock.resume();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const tom = {
    firstName: 'Tom',
    lastName: 'Hughes',
    email: `tom-${randomUUID().slice(0, 8)}@example.test`,
    category: 'Family' as const,
  };
  await addRecipient(page, tom);

  // The share dialog opens by itself with the code, which is also the one emailed to Tom.
  dialog = page.getByRole('dialog', { name: 'Share Tom’s access code' });
  await expect(dialog).toBeVisible();
  const shown = (await dialog.getByTestId('access-code').textContent()) ?? '';
  expect(shown).toMatch(EMERGENCY_CODE_PATTERN);
  const mail = await waitForMail(tom.email, /is recording video messages for you/);
  expect(readCode(mail)).toBe(shown);
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect(dialog.getByText(/Copied|Copy this text/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();

  const card = recipientCard(page, 'Tom Hughes');
  await expect(card.getByText('Family')).toBeVisible();
  await expect(card.getByText(tom.email)).toBeVisible();
  await expect(card.getByTestId('video-count')).toHaveText('0 videos recorded');
  await expect(
    card.getByRole('link', { name: 'Record New Message for Tom Hughes' }),
  ).toHaveAttribute('href', /\/record\?recipient=\d+$/);

  // The free plan allows one recipient besides the next of kin: the upgrade dialog shows.
  await page.getByRole('button', { name: 'Add Recipient' }).click();
  const upgrade = page.getByRole('dialog', { name: 'Upgrade to add more recipients' });
  await expect(upgrade).toBeVisible();
  await upgrade.getByRole('button', { name: 'Choose Standard' }).click();
  await expect(upgrade.getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
  await upgrade.getByRole('button', { name: 'Close' }).click();

  // Reshare gives a new code; the old one stops working.
  await card.getByRole('button', { name: 'Share access code with Tom Hughes' }).click();
  dialog = page.getByRole('dialog', { name: 'Share Tom’s access code' });
  await dialog.getByRole('button', { name: 'Reshare' }).click();
  const fresh = (await dialog.getByTestId('access-code').textContent()) ?? '';
  expect(fresh).toMatch(EMERGENCY_CODE_PATTERN);
  expect(fresh).not.toBe(shown);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const phone = await newDevice();
  await signInAsRecipient(phone, tom.email, shown);
  await expect(
    phone
      .getByText('The email address or access code is not right. Please check them and try again.')
      .first(),
  ).toBeVisible();
  await signInAsRecipient(phone, tom.email, fresh.toLowerCase());
  await expect(phone.getByRole('heading', { name: 'Welcome, Tom' })).toBeVisible();
  await expect(
    phone.getByText('These are the video messages Margaret Hughes has shared with you.'),
  ).toBeVisible();
  await expect(phone.getByText('There are no messages for you here yet.')).toBeVisible();
  await expect(
    phone.getByRole('region', { name: 'Why you cannot see messages yet' }),
  ).toBeVisible();
  await expect(phone.getByRole('button', { name: 'Next of Kin Emergency Access' })).toHaveCount(0);

  // The last next of kin cannot be removed; Tom can, after a confirmation naming his videos.
  await recipientCard(page, 'Susan Hughes')
    .getByRole('button', { name: 'Remove Susan Hughes' })
    .click();
  const confirmKin = page.getByRole('dialog', { name: 'Remove Susan Hughes?' });
  await expect(confirmKin.getByText('Add another next of kin first')).toBeVisible();
  await expect(confirmKin.getByRole('button', { name: 'Remove' })).toBeDisabled();
  await confirmKin.getByRole('button', { name: 'Cancel' }).click();

  await card.getByRole('checkbox', { name: 'Select Tom Hughes' }).check();
  await page.getByRole('button', { name: 'Delete selected (1)' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Tom Hughes?' });
  await expect(confirm.getByText('Tom Hughes · no videos')).toBeVisible();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(toastMessage(page, 'Recipient removed')).toBeVisible();
  await expect(recipientCard(page, 'Tom Hughes')).toHaveCount(0);

  // Tom's session ended with him.
  await phone.reload();
  await expect(phone.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});

test('a next of kin signs in with the code from the mail and sees the emergency access option', async ({
  page,
  newDevice,
}) => {
  const owner = await registerUser(page, { firstName: 'Albert' });
  const mail = await waitForMail(owner.nextOfKin.email, /has chosen you as their next of kin/);
  const code = readCode(mail);
  expect(code).toBe(owner.emergencyCode);

  const phone = await newDevice();
  await signInAsRecipient(phone, owner.nextOfKin.email.toUpperCase(), code);
  await expect(
    phone.getByRole('heading', { name: `Welcome, ${owner.nextOfKin.firstName}` }),
  ).toBeVisible();
  await expect(
    phone.getByText(`These are the video messages Albert ${owner.lastName} has shared with you.`),
  ).toBeVisible();
  await phone.getByRole('button', { name: 'Next of Kin Emergency Access' }).click();
  await expect(phone.getByRole('dialog', { name: 'Next of Kin Emergency Access' })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('every control on the recipients page is at least 44 × 44 px', async ({ page }) => {
    await registerUser(page, { firstName: 'Margaret' });
    await page.goto('/recipients');
    await expect(page.getByRole('checkbox', { name: /^Select / }).first()).toBeVisible();

    const controls = page
      .getByRole('main')
      .locator('button, a[href], input, select, textarea, [role="checkbox"], [role="radio"]');
    const sizes = await controls.evaluateAll((elements) =>
      elements
        .filter((element) => element.getClientRects().length > 0)
        .map((element) => {
          const box = element.getBoundingClientRect();
          const name =
            element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName;
          return { name, width: Math.round(box.width), height: Math.round(box.height) };
        }),
    );
    expect(sizes.length).toBeGreaterThan(3);
    const small = sizes.filter((size) => size.width < 44 || size.height < 44);
    expect(small).toEqual([]);
  });
});
