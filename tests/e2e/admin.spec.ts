import * as OTPAuth from 'otpauth';
import type { BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN_EMAIL } from './support/installation';
import {
  expect,
  GOOD_PASSWORD,
  openApp,
  readDeviceId,
  registerUser,
  signOutFromDashboard,
  submitSignIn,
  test,
  toastMessage,
  type TestUser,
} from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { readLink, waitForMail } from './support/outbox';
import { callApi } from './support/page-api';

/** The recovery code format: four groups of four. */
const RECOVERY_CODE_PATTERN = /^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/;
const ADMINS_ONLY = 'Only administrators can access the admin dashboard.';
const TEMPORARY_PASSWORD = 'Porridge&Jam-2027';

// Only admin@memento-e2e.test is an admin (the server's ADMIN_EMAIL), and an account belongs to the
// device it registered on, so the tests share one admin browser and run in order.
test.describe.configure({ mode: 'serial' });

let adminContext: BrowserContext;
let admin: Page;
let adminUser: TestUser;
let totpSecret = '';
let recoveryCodes: string[] = [];
/** The 30-second TOTP step whose code confirmed the enrolment. */
let enrolmentStep = 0;
const TOTP_STEP_MS = 30_000;
const totpStep = () => Math.floor(Date.now() / TOTP_STEP_MS);

/** What an authenticator app would show now for the secret read off the screen. */
function currentTotp(secret: string): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
}

type TAdminTab = 'Users' | 'Devices' | 'Email';

async function selectTab(page: Page, tab: TAdminTab) {
  await page.getByRole('tab', { name: tab }).click();
  await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
}

/** /admin loaded afresh (so it shows what the tests before changed), on the given tab. */
async function openAdmin(page: Page, tab: TAdminTab = 'Users') {
  await page.goto('/admin');
  await selectTab(page, tab);
}

/** The user's card on the Users tab, found with the search box as a care home would. */
async function findUserCard(page: Page, username: string) {
  await page.getByLabel('Find a user').fill(username);
  // The list first settles on the search's own answer: a card found in the whole list before it
  // moved under the click when the answer came.
  await expect(
    page.getByText(/^(\d+ users? match(es)?|Showing the first \d+ users that match)$/),
  ).toBeVisible();
  const escaped = username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const card = page.getByRole('listitem').filter({
    // The admin's own card says '(you)' after the name.
    has: page.getByRole('heading', { name: new RegExp(`^${escaped}( \\(you\\))?$`) }),
  });
  await expect(card).toBeVisible();
  return card;
}

test.beforeAll(async ({ browser }, testInfo) => {
  testInfo.setTimeout(120_000);
  adminContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.1' },
  });
  admin = await adminContext.newPage();
  adminUser = await registerUser(admin, {
    email: E2E_ADMIN_EMAIL,
    username: `admin-${Date.now().toString(36)}`,
    firstName: 'Agatha',
  });
});

test.afterAll(async () => {
  await adminContext.close();
});

test('an admin enrols an authenticator app and is shown ten recovery codes once', async () => {
  const testInfo = test.info();
  await expect(admin.getByRole('link', { name: 'Admin Panel' }).first()).toBeAttached();
  await admin.goto('/admin');
  const enrol = admin.getByRole('region', { name: 'Set up two-step sign-in' });
  await expect(enrol).toBeVisible();
  await enrol.getByRole('button', { name: 'Begin Setup' }).click();

  await expect(
    enrol.getByRole('img', { name: 'QR code for adding Memento to your authenticator app' }),
  ).toBeVisible();
  totpSecret = ((await admin.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(totpSecret).toMatch(/^[A-Z2-7]{16,}$/);
  await expectNoSeriousViolations(admin, testInfo, 'two-step enrolment');

  await enrol.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    enrol.getByText('Please enter the 6-digit code from your authenticator app'),
  ).toBeVisible();
  const enrolmentCode = currentTotp(totpSecret);
  enrolmentStep = totpStep();
  await enrol.getByLabel('6-digit code').fill(enrolmentCode);
  await enrol.getByRole('button', { name: 'Confirm' }).click();

  const codes = admin.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
  for (const code of recoveryCodes) expect(code).toMatch(RECOVERY_CODE_PATTERN);
  await expectNoSeriousViolations(admin, testInfo, 'recovery codes');

  // Printing them prints the codes alone, not the page around them.
  await admin.emulateMedia({ media: 'print' });
  await expect(admin.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeHidden();
  await expect(admin.getByTestId('recovery-codes')).toBeVisible();
  await admin.emulateMedia({ media: 'screen' });

  const proceed = admin.getByRole('button', { name: 'Continue to the Admin Dashboard' });
  await expect(proceed).toBeDisabled();
  await admin.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await proceed.click();
  await expect(admin.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');

  // Shown once: coming back shows the dashboard, not the codes.
  await admin.reload();
  await expect(admin.getByRole('tab', { name: 'Users' })).toBeVisible();
  await expect(admin.getByTestId('recovery-codes')).toHaveCount(0);
});

test('a new admin session asks for a code again, and a recovery code works instead', async () => {
  const testInfo = test.info();
  await admin.goto('/');
  await signOutFromDashboard(admin);
  await submitSignIn(admin, adminUser);
  await expect(
    admin.getByRole('heading', { name: `Welcome, ${adminUser.firstName}` }),
  ).toBeVisible();

  await admin.goto('/admin');
  const verify = admin.getByRole('region', { name: 'Confirm it is you' });
  await expect(verify).toBeVisible();
  await expect(admin.getByRole('tab', { name: 'Users' })).toHaveCount(0);

  await verify.getByLabel('6-digit code').fill('000000');
  await verify.getByRole('button', { name: 'Verify' }).click();
  await expect(verify.getByText('That code is not right.')).toBeVisible();
  await expectNoSeriousViolations(admin, testInfo, 'two-step verification');

  await verify.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await verify.getByLabel('Recovery code').fill(recoveryCodes[0]!.toLowerCase());
  await verify.getByRole('button', { name: 'Verify' }).click();
  await expect(admin.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
});

test('someone who is not an admin is told the dashboard is for administrators', async ({
  newDevice,
}) => {
  const page = await newDevice();
  await registerUser(page);
  await expect(page.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByText(ADMINS_ONLY)).toBeVisible();
  await expect(page.getByRole('tab')).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('an admin overrides a user’s tier and VIP status, and the badges show it', async ({
  newDevice,
}) => {
  const member = await registerUser(await newDevice());
  await openAdmin(admin);
  const card = await findUserCard(admin, member.username);
  await expect(card.getByText('Primary', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: `Manage Tier for ${member.username}` }).click();

  const dialog = admin.getByRole('dialog', { name: 'Override User Tier' });
  const save = dialog.getByRole('button', { name: 'Save Changes' });
  await expect(dialog.getByText('Please fill in all fields before saving')).toBeVisible();
  await expect(save).toBeDisabled();
  await dialog.getByLabel('Tier').selectOption({ label: 'Premium' });
  await dialog.getByRole('radio', { name: /^VIP/ }).check();
  await expect(save).toBeDisabled();
  await dialog.getByLabel('Reason').fill('Trial month agreed with Rosewood House');
  await save.click();

  await expect(toastMessage(admin, 'User tier has been updated successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Premium', { exact: true })).toBeVisible();
  await expect(card.getByText('VIP', { exact: true })).toBeVisible();

  // Who changed it, and when, is kept and shown.
  await card.getByRole('button', { name: `Manage Tier for ${member.username}` }).click();
  await expect(dialog.getByText(`Plan last changed by ${adminUser.username}`)).toBeVisible();
  await expect(dialog.getByText('Trial month agreed with Rosewood House')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // Closing the dialog puts the focus back where it was.
  await expect(
    card.getByRole('button', { name: `Manage Tier for ${member.username}` }),
  ).toBeFocused();

  // VIP off, then back to billing: with nothing paid for, the plan is Community Edition again.
  await card.getByRole('button', { name: `Manage Tier for ${member.username}` }).click();
  await dialog.getByRole('radio', { name: /^Regular/ }).check();
  await dialog.getByLabel('Reason').fill('Trial month is over');
  await save.click();
  await expect(dialog).toBeHidden();
  await card.getByRole('button', { name: `Return to billing: ${member.username}` }).click();
  const confirm = admin.getByRole('dialog', { name: 'Return to billing?' });
  await expect(
    confirm.getByText('Their plan will follow their payments again: Community Edition.'),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'Return to billing' }).click();
  await expect(toastMessage(admin, `${member.username} follows billing again`)).toBeVisible();
  await expect(card.getByText('Set by administrator (overrides billing)')).toBeHidden();
  await expect(card.getByText('Premium', { exact: true })).toBeHidden();
});

test('an admin resets a password and the user must choose a new one at sign-in', async ({
  newDevice,
}) => {
  const page = await newDevice();
  const member = await registerUser(page);
  await signOutFromDashboard(page);

  await openAdmin(admin);
  const card = await findUserCard(admin, member.username);
  await card.getByRole('button', { name: `Reset Password for ${member.username}` }).click();
  const dialog = admin.getByRole('dialog', { name: 'Reset Password' });
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(dialog.getByText('New password and reason are required').first()).toBeVisible();
  await dialog.getByLabel('New password').fill(TEMPORARY_PASSWORD);
  await dialog.getByLabel('Reason').fill('Forgot the password, asked at the front desk');
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(toastMessage(admin, 'User password has been reset successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  await openApp(page, '/auth');
  await submitSignIn(page, { username: member.username, password: GOOD_PASSWORD });
  await expect(page.getByRole('alert', { name: 'Login Failed' })).toContainText(
    'Invalid username or password',
  );
  await page.getByLabel('Password', { exact: true }).fill(TEMPORARY_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/setup-password$/);
});

test('deleting a user with recipients is refused first, then done with the recipients', async ({
  newDevice,
}) => {
  const member = await registerUser(await newDevice(), {
    firstName: 'Winifred',
    lastName: `Ashby${Date.now().toString(36)}`,
  });
  await openAdmin(admin);

  // Their next of kin is listed as their recipient.
  await admin.getByLabel('Find a user').fill(member.nextOfKin.email);
  const kinCard = admin.getByRole('list', { name: 'Users' }).getByRole('listitem').first();
  await expect(
    kinCard.getByText(`Recipient of ${member.firstName} ${member.lastName}`),
  ).toBeVisible();

  const card = await findUserCard(admin, member.username);
  await card.getByRole('button', { name: `Delete ${member.username}` }).click();
  const dialog = admin.getByRole('dialog', { name: 'Delete User' });
  await expect(dialog.getByText('Are you sure you want to delete this user?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();

  await expect(toastMessage(admin, 'Cannot Delete User')).toBeVisible();
  await expect(dialog.getByTestId('delete-dependents')).toContainText(member.nextOfKin.firstName);
  await dialog.getByRole('button', { name: 'Delete user and their recipients' }).click();
  await expect(dialog).toBeHidden();
  // The user and their next of kin.
  await expect(toastMessage(admin, '2 users deleted')).toBeVisible();

  await admin.getByLabel('Find a user').fill(member.username);
  await expect(admin.getByText(`No user matches ‘${member.username}’.`)).toBeVisible();
  await admin.getByLabel('Find a user').fill(member.nextOfKin.email);
  await expect(admin.getByText(`No user matches ‘${member.nextOfKin.email}’.`)).toBeVisible();
});

test('an admin selects all the users a search finds and deletes them together', async ({
  newDevice,
}) => {
  // Two registrations with onboarding before the admin starts.
  test.slow();
  const family = `Pemberton${Date.now().toString(36)}`;
  const first = await registerUser(await newDevice(), { firstName: 'Arthur', lastName: family });
  const second = await registerUser(await newDevice(), { firstName: 'Mabel', lastName: family });
  await openAdmin(admin);
  await admin.getByLabel('Find a user').fill(family);
  await expect(admin.getByText('2 users match')).toBeVisible();
  await admin.getByRole('checkbox', { name: 'Select All Users' }).check();
  await expect(admin.getByRole('checkbox', { name: `Select ${first.username}` })).toBeChecked();
  await expect(admin.getByRole('checkbox', { name: `Select ${second.username}` })).toBeChecked();
  await admin.getByRole('button', { name: 'Delete Selected (2)' }).click();

  const dialog = admin.getByRole('dialog', { name: 'Delete 2 Users' });
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toastMessage(admin, 'Cannot Delete User')).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete user and their recipients' }).click();
  await expect(toastMessage(admin, '4 users deleted')).toBeVisible();
  await expect(admin.getByText(`No user matches ‘${family}’.`)).toBeVisible();
});

test('an admin removes a device association and its user must sign in again', async ({
  newDevice,
}) => {
  const page = await newDevice();
  const member = await registerUser(page);
  const deviceId = (await readDeviceId(page)) ?? '';
  expect(deviceId).not.toBe('');

  await openAdmin(admin, 'Devices');
  await expect(admin.getByRole('heading', { name: 'Device Associations' })).toBeVisible();
  const row = admin.getByRole('row').filter({ hasText: deviceId });
  await expect(row).toContainText(member.username);
  await expect(row).toContainText('Primary Device');
  await row.getByRole('button', { name: `Remove device association ${deviceId}` }).click();

  const dialog = admin.getByRole('dialog', { name: 'Remove Device Association' });
  await expect(dialog).toContainText('They will have to sign in again on that device.');
  await dialog.getByRole('button', { name: 'Remove Association' }).click();
  await expect(toastMessage(admin, 'Device association removed successfully')).toBeVisible();
  await expect(admin.getByRole('row').filter({ hasText: deviceId })).toHaveCount(0);

  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
});

test('the email tools send a test message and a verification link that verifies', async ({
  newDevice,
}) => {
  const address = `checker-${Date.now().toString(36)}@example.test`;
  await openAdmin(admin, 'Email');
  await expect(admin.getByRole('heading', { name: 'Email Verification Tools' })).toBeVisible();
  await expect(admin.getByTestId('outbox-path')).toContainText('outbox');

  await admin.getByRole('button', { name: 'Send Test' }).click();
  await expect(admin.getByText('Please enter an email address')).toBeVisible();

  await admin.getByLabel('Email address').fill(address);
  await admin.getByRole('button', { name: 'Send Test' }).click();
  const sent = admin.getByRole('alert', { name: 'Test email sent' });
  await expect(sent).toBeVisible();
  const code = ((await admin.getByTestId('test-email-code').textContent()) ?? '').trim();
  expect(code).not.toBe('');
  const testMail = await waitForMail(address, /test message/i);
  if (code !== 'N/A') expect(testMail.text).toContain(code);

  await admin.getByRole('button', { name: 'Verify Email' }).click();
  await expect(admin.getByRole('alert', { name: 'Verification email sent' })).toBeVisible();
  const mail = await waitForMail(address, /confirm your email/i);
  const baseURL = test.info().project.use.baseURL ?? '';
  const link = readLink(mail, `${baseURL}/verify-email#token=`);

  const reader = await newDevice();
  await openApp(reader, link);
  await expect(reader.getByRole('alert', { name: 'Email address verified' })).toContainText(
    address,
  );

  await admin.reload();
  await expect(
    admin
      .getByRole('listitem')
      .filter({ hasText: address })
      .getByText(/^Verified /),
  ).toBeVisible();
});

test('the admin tabs have no serious accessibility problems on a phone or a laptop', async () => {
  const testInfo = test.info();
  // Eight axe scans, on one load of /admin: the layout at each size is CSS alone.
  test.slow();
  await openAdmin(admin, 'Users');
  for (const [name, viewport] of Object.entries({
    phone: { width: 390, height: 844 },
    laptop: { width: 1280, height: 800 },
  })) {
    await admin.setViewportSize(viewport);
    await selectTab(admin, 'Users');
    await expect(admin.getByRole('list', { name: 'Users' })).toBeVisible();
    await expectNoSeriousViolations(admin, testInfo, `users tab (${name})`);

    const card = await findUserCard(admin, adminUser.username);
    await card.getByRole('button', { name: `Manage Tier for ${adminUser.username}` }).click();
    await expect(admin.getByRole('dialog', { name: 'Override User Tier' })).toBeVisible();
    await expectNoSeriousViolations(admin, testInfo, `override tier dialog (${name})`);
    await admin
      .getByRole('dialog', { name: 'Override User Tier' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await admin.getByLabel('Find a user').fill('');

    await selectTab(admin, 'Devices');
    await expect(admin.getByRole('heading', { name: 'Device Associations' })).toBeVisible();
    await expectNoSeriousViolations(admin, testInfo, `devices tab (${name})`);

    await selectTab(admin, 'Email');
    await expect(admin.getByTestId('outbox-path')).toBeVisible();
    await expectNoSeriousViolations(admin, testInfo, `email tab (${name})`);
  }
});

test('a later admin session verifies with a code from the authenticator app', async () => {
  await admin.goto('/');
  await signOutFromDashboard(admin);
  await submitSignIn(admin, adminUser);
  await expect(
    admin.getByRole('heading', { name: `Welcome, ${adminUser.firstName}` }),
  ).toBeVisible();
  // An admin on the free tier has the cloud, as a VIP does: the dashboard says so, and only so.
  await expect(
    admin.getByText(
      'Your messages for the people you love, kept safe on this device and in the cloud.',
    ),
  ).toBeVisible();
  await expect(
    admin.getByRole('region', { name: 'Community Edition - Local Storage' }),
  ).toHaveCount(0);
  await admin.goto('/admin');
  const verify = admin.getByRole('region', { name: 'Confirm it is you' });
  await expect(verify).toBeVisible();
  // A code works only once: wait, if need be, for a step after the one enrolment used.
  const waitMs = (enrolmentStep + 1) * TOTP_STEP_MS - Date.now();
  if (waitMs > 0) await admin.waitForTimeout(waitMs + 500);
  await verify.getByLabel('6-digit code').fill(currentTotp(totpSecret));
  await verify.getByRole('button', { name: 'Verify' }).click();
  await expect(admin.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
});

test('a list longer than one page shows 50 users, and Show more loads the rest', async () => {
  // 55 accounts more than any other test makes: the admin's own recipients, added through the
  // API on a plan without a recipient limit (registrations are limited to 30 an hour per
  // address), and removed again at the end.
  test.slow();
  const PAGE_SIZE = 50;
  const EXTRA = 55;
  const family = `Longlist${Date.now().toString(36)}`;
  const me = await callApi<{ id: number }>(admin, 'GET', '/api/user');
  await callApi(admin, 'POST', `/api/admin/users/${me.id}/override`, {
    tier: 'premium',
    isVIP: false,
    reason: 'Room for a long list of recipients',
  });
  const ids: number[] = [];
  try {
    for (let i = 1; i <= EXTRA; i += 1) {
      const added = await callApi<{ id: number }>(admin, 'POST', '/api/recipients', {
        firstName: 'Reader',
        lastName: `${family} ${i}`,
        email: `${family.toLowerCase()}.${i}@example.test`,
        category: 'friend',
      });
      ids.push(added.id);
    }

    await openAdmin(admin);
    const cards = admin.getByRole('list', { name: 'Users' }).locator(':scope > li');
    const showMore = admin.getByRole('button', { name: 'Show more' });
    await expect(cards).toHaveCount(PAGE_SIZE);
    await expect(admin.getByText(`Showing the first ${PAGE_SIZE} users`)).toBeVisible();
    await expect(showMore).toBeVisible();

    // Large and obvious, like the other buttons: at least 44 × 44 px, text of 18 px or more.
    const box = await showMore.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);
    const fontSize = await showMore.evaluate((button) => getComputedStyle(button).fontSize);
    expect(parseFloat(fontSize)).toBeGreaterThanOrEqual(18);

    // The search asks the server, so it finds them all, a page at a time.
    await admin.getByLabel('Find a user').fill(family);
    await expect(admin.getByText(`Showing the first ${PAGE_SIZE} users that match`)).toBeVisible();
    await expect(cards).toHaveCount(PAGE_SIZE);
    await showMore.click();
    await expect(cards).toHaveCount(EXTRA);
    await expect(admin.getByText(`${EXTRA} users match`)).toBeVisible();
    await expect(showMore).toHaveCount(0);
    // Every one of them, once: the first page and the rest, nobody twice.
    for (let i = 1; i <= EXTRA; i += 1) {
      await expect(
        cards.getByText(`${family.toLowerCase()}.${i}@example.test`, { exact: true }),
      ).toHaveCount(1);
    }
  } finally {
    if (ids.length > 0) {
      await callApi(admin, 'DELETE', '/api/admin/users', { ids, includeRecipients: true });
    }
    await callApi(admin, 'POST', `/api/admin/users/${me.id}/override`, {
      tier: 'free',
      isVIP: false,
      reason: 'Back to the free plan after the long list',
    });
  }
});
