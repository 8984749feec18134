import type { Page } from '@playwright/test';
import { MESSAGES } from '../../src/shared/domain/errors';
import {
  EMERGENCY_CODE_PATTERN,
  expect,
  fillNextOfKin,
  makeNextOfKin,
  makeUser,
  openApp,
  registerUser,
  signOutFromDashboard,
  submitRegistration,
  submitSignIn,
  test,
  tickAllBoxes,
  toastMessage,
} from './fixtures';
import { readCode, readLink, readMailTo, waitForMail } from './support/outbox';
import { signInAsRecipient } from './support/recipients';

const NEW_PASSWORD = 'Rainy&Sunday-1957';
const NEXT_OF_KIN_MAIL = /has chosen you as their next of kin/;
const NEW_CODE_MAIL = /Your new emergency code/;

const progress = (page: Page) => page.getByRole('progressbar', { name: 'Setup progress' });
const stepHeading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 2, name, exact: true });
const auditRow = (page: Page, event: string, status: 'Success' | 'Failed') =>
  page.getByRole('row').filter({ hasText: event }).filter({ hasText: status });

async function openAuditLogs(page: Page) {
  await page.getByRole('link', { name: 'View Security Audit Logs' }).click();
  await expect(page).toHaveURL(/\/audit-logs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Security Audit Logs' })).toBeVisible();
}

test('onboarding: each step opens only when done, and the code shown once is the one emailed to the next of kin', async ({
  page,
}) => {
  const user = makeUser({ firstName: 'Margaret' });
  const nextOfKin = makeNextOfKin({ firstName: 'Susan', lastName: 'Hughes' });
  await openApp(page, '/auth?mode=community');
  await submitRegistration(page, user);

  // A new primary account goes nowhere else until setup is done.
  await expect(page).toHaveURL(/\/onboarding$/);
  await page.goto('/audit-logs');
  await expect(page).toHaveURL(/\/onboarding$/);

  const proceed = page.getByRole('button', { name: 'Continue' });
  const previous = page.getByRole('button', { name: 'Previous' });

  // Step 1: both acknowledgements.
  await expect(stepHeading(page, 'Why This Matters')).toBeVisible();
  await expect(progress(page)).toHaveAttribute('aria-valuenow', '0');
  await expect(previous).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Counselling & Support page' })).toHaveAttribute(
    'href',
    '/support',
  );
  await expect(proceed).toBeDisabled();
  const boxes = page.getByRole('main').getByRole('checkbox');
  await boxes.first().check();
  await expect(proceed).toBeDisabled();
  await boxes.last().check();
  await expect(proceed).toBeEnabled();
  await proceed.click();

  // Step 2: all five fields, checked against the shared schema.
  await expect(stepHeading(page, 'Next of Kin Registration')).toBeVisible();
  await expect(progress(page)).toHaveAttribute('aria-valuenow', '1');
  await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('type', 'email');
  await expect(page.getByLabel('Phone', { exact: true })).toHaveAttribute('type', 'tel');
  await expect(proceed).toBeDisabled();
  await fillNextOfKin(page, { ...nextOfKin, relationship: '' });
  await expect(proceed).toBeDisabled();
  await page.getByLabel('Relationship', { exact: true }).fill(nextOfKin.relationship);
  await page.getByLabel('Email', { exact: true }).fill('not-an-email');
  await expect(proceed).toBeEnabled();
  await proceed.click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(stepHeading(page, 'Next of Kin Registration')).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(nextOfKin.email);
  await proceed.click();

  // Step 3: the four points and both confirmations. Going back keeps what was typed.
  await expect(stepHeading(page, 'Emergency Access Setup')).toBeVisible();
  await expect(page.getByRole('main')).toContainText(
    `We email the code to Susan at ${nextOfKin.email}`,
  );
  await expect(page.getByRole('main')).toContainText('Share it only privately with Susan');
  await previous.click();
  await expect(page.getByLabel('Phone', { exact: true })).toHaveValue(nextOfKin.phone);
  await proceed.click();
  await expect(proceed).toBeDisabled();
  await tickAllBoxes(page);
  await proceed.click();

  // Step 4: review; the setup call shows its progress.
  await expect(stepHeading(page, 'Review & Confirm')).toBeVisible();
  await expect(progress(page)).toHaveAttribute('aria-valuenow', '3');
  const review = page.getByRole('main');
  for (const value of ['Susan Hughes', nextOfKin.email, nextOfKin.phone, nextOfKin.relationship]) {
    await expect(review).toContainText(value);
  }
  let releaseSetup = () => {};
  const setupHeld = new Promise<void>((resolve) => (releaseSetup = resolve));
  await page.route('**/api/user/complete-onboarding', async (route) => {
    await setupHeld;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(page.getByRole('button', { name: 'Setting Up...' })).toBeDisabled();
  releaseSetup();

  // The code, shown this once, is the one in the next of kin's email.
  const shown = page.getByTestId('emergency-code');
  await expect(shown).toHaveText(EMERGENCY_CODE_PATTERN);
  await expect(page.getByRole('main')).toContainText(
    'Write this down and keep it somewhere safe. Susan has also been sent it by email.',
  );
  const mail = await waitForMail(nextOfKin.email, NEXT_OF_KIN_MAIL);
  expect(mail.subject).toBe(
    `${user.firstName} ${user.lastName} has chosen you as their next of kin on Memento`,
  );
  expect(readCode(mail)).toBe(await shown.textContent());

  // 'Print this page' prints, and the printout holds the code card alone.
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute('data-printed', 'yes');
  });
  await page.getByRole('button', { name: 'Print this page' }).click();
  await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
  await page.emulateMedia({ media: 'print' });
  await expect(shown).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue to Memento' })).toBeHidden();
  await expect(page.getByRole('banner')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  await page.getByRole('button', { name: 'Continue to Memento' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Margaret' })).toBeVisible();
  const welcome = toastMessage(page, 'Welcome to Memento!');
  await expect(welcome).toBeVisible();
  await expect(welcome).toContainText(
    'Your account is fully set up. Susan will receive emergency access details by email.',
  );

  // Done once, done for good: no wizard, no code, no second welcome.
  await page.goto('/onboarding');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Welcome to Memento!')).toHaveCount(0);
  await expect(page.getByTestId('emergency-code')).toHaveCount(0);
});

test('a setup that fails keeps what was typed, and the retry finishes with one next of kin and one email', async ({
  page,
}) => {
  const user = makeUser();
  const nextOfKin = makeNextOfKin({ firstName: 'Robert' });
  await openApp(page, '/auth?mode=community');
  await submitRegistration(page, user);
  await expect(page).toHaveURL(/\/onboarding$/);

  await tickAllBoxes(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await fillNextOfKin(page, nextOfKin);
  await page.getByRole('button', { name: 'Continue' }).click();
  await tickAllBoxes(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  const recipientCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/recipients')) recipientCalls.push(request.method());
  });
  await page.route('**/api/user/complete-onboarding', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'INTERNAL', message: MESSAGES.internal }),
    }),
  );
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  const failure = toastMessage(page, 'Error');
  await expect(failure).toContainText(MESSAGES.internal);
  await expect(stepHeading(page, 'Review & Confirm')).toBeVisible();
  await expect(page.getByRole('main')).toContainText(nextOfKin.email);

  await page.unroute('**/api/user/complete-onboarding');
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(page.getByTestId('emergency-code')).toHaveText(EMERGENCY_CODE_PATTERN);
  expect(recipientCalls).toEqual(['POST']);

  const mail = await waitForMail(nextOfKin.email, NEXT_OF_KIN_MAIL);
  expect(readCode(mail)).toBe(await page.getByTestId('emergency-code').textContent());
  expect(await readMailTo(nextOfKin.email)).toHaveLength(1);
});

test('break-glass: the next of kin resets the password with the emailed code, and the owner signs in with it on their own device', async ({
  page,
  newDevice,
}) => {
  const owner = await registerUser(page, { firstName: 'Margaret' });
  const { nextOfKin } = owner;
  await signOutFromDashboard(page);
  const code = readCode(await waitForMail(nextOfKin.email, NEXT_OF_KIN_MAIL));
  expect(code).toBe(owner.emergencyCode);

  // The next of kin, on their own computer.
  const kin = await newDevice();
  await openApp(kin, '/auth');
  await kin.getByRole('button', { name: 'Emergency access for next of kin' }).click();
  await expect(kin.getByRole('heading', { level: 1, name: 'Emergency Access' })).toBeVisible();
  await expect(kin).toHaveURL(/view=break_glass/);
  await expect(kin.getByLabel('Emergency code', { exact: true })).toHaveAttribute(
    'placeholder',
    'ABCD-EFGH-JKLM-NP23',
  );

  await kin.getByRole('button', { name: 'Reset Password' }).click();
  await expect(kin.getByText('Email is required')).toBeVisible();
  await expect(kin.getByText('Emergency code is required')).toBeVisible();

  // A wrong code is refused, with a toast and in the form.
  await kin.getByLabel('Your email', { exact: true }).fill(nextOfKin.email);
  await kin.getByLabel('Emergency code', { exact: true }).fill('ABCD-EFGH-JKLM-NP23');
  await kin.getByLabel('New password for their account', { exact: true }).fill(NEW_PASSWORD);
  await kin.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
  await kin.getByRole('button', { name: 'Reset Password' }).click();
  await expect(kin.getByRole('alert', { name: 'Emergency access failed' })).toContainText(
    MESSAGES.breakGlassInvalid,
  );
  await expect(toastMessage(kin, 'Emergency access failed')).toBeVisible();

  // The right code, typed as a person might: lower case, no dashes.
  await kin
    .getByLabel('Emergency code', { exact: true })
    .fill(code.replace(/-/g, ' ').toLowerCase());
  await kin.getByRole('button', { name: 'Reset Password' }).click();
  await expect(kin.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await expect(
    kin.getByRole('alert', { name: 'Password reset with emergency access' }),
  ).toContainText(
    'The password has been reset. Margaret has been signed out everywhere and emailed',
  );

  // The owner is told, and the next of kin gets a fresh code in place of the used one.
  await waitForMail(owner.email, /password was reset by your next of kin/);
  const fresh = readCode(await waitForMail(nextOfKin.email, NEW_CODE_MAIL));
  expect(fresh).toMatch(EMERGENCY_CODE_PATTERN);
  expect(fresh).not.toBe(code);

  // On the owner's own device: the old password no longer works, the new one does.
  await submitSignIn(page, owner);
  await expect(page.getByRole('alert', { name: 'Login Failed' })).toContainText(
    MESSAGES.invalidCredentials,
  );
  await submitSignIn(page, { username: owner.username, password: NEW_PASSWORD });
  await expect(page.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible();

  // Every attempt is in the owner's security log.
  await openAuditLogs(page);
  await expect(auditRow(page, 'Emergency access', 'Success')).toContainText(
    `${nextOfKin.firstName} ${nextOfKin.lastName} (next of kin) reset the password`,
  );
  await expect(auditRow(page, 'Emergency access', 'Failed')).toContainText('wrong emergency code');
  await expect(auditRow(page, 'Sign-in failed', 'Failed').first()).toBeVisible();
});

test('forgot password: the same answer for any email, the emailed code resets it, and the owner signs in', async ({
  page,
}) => {
  const owner = await registerUser(page);
  await signOutFromDashboard(page);

  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Forgot Your Password?' }),
  ).toBeVisible();

  // An address with no account gets exactly the answer a real one gets.
  await page.getByLabel('Email', { exact: true }).fill('nobody-here@example.test');
  await page.getByRole('button', { name: 'Send Reset Code' }).click();
  const sent = page.getByRole('alert', { name: 'Reset Instructions Sent' });
  await expect(sent).toContainText(MESSAGES.resetInstructionsSent);
  await expect(page.getByRole('heading', { level: 1, name: 'Reset Your Password' })).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('nobody-here@example.test');

  await page.getByRole('button', { name: 'Back to sign in' }).click();
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Email', { exact: true }).fill(owner.email.toUpperCase());
  await page.getByRole('button', { name: 'Send Reset Code' }).click();
  await expect(sent).toContainText(MESSAGES.resetInstructionsSent);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(owner.email);

  const code = readCode(await waitForMail(owner.email, /password reset code/));
  await page.getByLabel('Reset code', { exact: true }).fill(code);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password', { exact: true }).fill(`${NEW_PASSWORD}x`);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Reset Password' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('alert', { name: 'Password Reset Successful' })).toBeVisible();
  await waitForMail(owner.email, /password was changed/);

  await submitSignIn(page, { username: owner.username, password: NEW_PASSWORD });
  await expect(page.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible();

  await openAuditLogs(page);
  await expect(auditRow(page, 'Password reset requested', 'Success')).toBeVisible();
  await expect(
    auditRow(page, 'Password reset', 'Success').filter({ hasText: 'emailed reset code' }),
  ).toBeVisible();
});

test('the reset link in the email fills in the form and leaves no code in the address bar', async ({
  page,
  baseURL,
}) => {
  const owner = await registerUser(page);
  await signOutFromDashboard(page);
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Email', { exact: true }).fill(owner.email);
  await page.getByRole('button', { name: 'Send Reset Code' }).click();
  await expect(page.getByRole('alert', { name: 'Reset Instructions Sent' })).toBeVisible();

  const mail = await waitForMail(owner.email, /password reset code/);
  const link = readLink(mail, `${baseURL}/auth?view=reset_password#`);
  // The email's button opens a new tab.
  const tab = await page.context().newPage();
  await tab.goto(link);
  await expect(tab.getByRole('heading', { level: 1, name: 'Reset Your Password' })).toBeVisible();
  await expect(tab.getByLabel('Email', { exact: true })).toHaveValue(owner.email);
  await expect(tab.getByLabel('Reset code', { exact: true })).toHaveValue(readCode(mail));
  await expect.poll(() => tab.evaluate(() => window.location.hash)).toBe('');
  expect(tab.url()).not.toContain(readCode(mail));

  // A wrong code is refused in plain words.
  await tab.getByLabel('Reset code', { exact: true }).fill('ZZZZ-ZZZZ');
  await tab.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await tab.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
  await tab.getByRole('button', { name: 'Reset Password' }).click();
  await expect(tab.getByRole('alert', { name: 'Password not reset' })).toContainText(
    MESSAGES.resetCodeInvalid,
  );

  // Followed on a page already open at the reset form, the link fills it in just the same.
  await page.goto(link);
  await expect(page.getByLabel('Reset code', { exact: true })).toHaveValue(readCode(mail));
  await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('');
});

test('the dashboard Reset Password dialog checks every field and changes the password', async ({
  page,
}) => {
  const owner = await registerUser(page);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Password' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Password requirements' })).toBeVisible();

  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(dialog.getByText('Current password is required')).toBeVisible();
  await expect(dialog.getByText('Password must be at least 12 characters')).toBeVisible();
  await expect(dialog.getByText('Please confirm your new password')).toBeVisible();

  await dialog.getByLabel('Current password', { exact: true }).fill('Not&My-Password-1');
  await dialog.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await dialog.getByLabel('Confirm new password', { exact: true }).fill('Something&Else-22');
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(dialog.getByText('Passwords do not match')).toBeVisible();

  await dialog.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(dialog.getByText(MESSAGES.currentPasswordWrong)).toBeVisible();
  await expect(toastMessage(page, 'Error')).toContainText(MESSAGES.currentPasswordWrong);

  await dialog.getByLabel('Current password', { exact: true }).fill(owner.password);
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(dialog).toBeHidden();
  await expect(toastMessage(page, 'Success')).toContainText(
    'Password has been reset successfully.',
  );

  await signOutFromDashboard(page);
  await submitSignIn(page, owner);
  await expect(page.getByRole('alert', { name: 'Login Failed' })).toBeVisible();
  await submitSignIn(page, { username: owner.username, password: NEW_PASSWORD });
  await expect(page.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible();
});

test('the audit log lists the account’s events and shows a stranger’s attempt within seconds', async ({
  page,
  newDevice,
}) => {
  const owner = await registerUser(page);
  await openAuditLogs(page);
  for (const column of ['Time', 'Event', 'User', 'Status', 'Details']) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }
  await expect(auditRow(page, 'Account created', 'Success')).toContainText(owner.username);
  await expect(auditRow(page, 'Setup completed', 'Success')).toBeVisible();
  await expect(auditRow(page, 'Recipient added', 'Success')).toContainText(
    `Added next of kin ${owner.nextOfKin.firstName} ${owner.nextOfKin.lastName}`,
  );
  await expect(auditRow(page, 'Sign-in failed', 'Failed')).toHaveCount(0);
  // Every word of a detail is on the screen, wrapped, never cut off behind an ellipsis.
  const cutOff = await page
    .getByRole('row')
    .locator('td')
    .evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth).length);
  expect(cutOff).toBe(0);

  // Someone elsewhere tries the password: the open page shows it without a reload.
  const stranger = await newDevice();
  await openApp(stranger, '/auth');
  await submitSignIn(stranger, { username: owner.username, password: 'Guessing&Wrong-123' });
  await expect(stranger.getByRole('alert', { name: 'Login Failed' })).toBeVisible();
  await expect(auditRow(page, 'Sign-in failed', 'Failed')).toBeVisible({ timeout: 15_000 });
  await expect(auditRow(page, 'Sign-in failed', 'Failed')).toContainText(owner.username);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the audit log shows cards instead of a table', async ({ page }) => {
    const owner = await registerUser(page);
    await page.goto('/audit-logs');
    const events = page.getByRole('list', { name: 'Your security events, newest first' });
    await expect(events).toBeVisible();
    await expect(page.getByRole('table')).toBeHidden();
    await expect(events.getByRole('listitem').filter({ hasText: 'Account created' })).toContainText(
      owner.username,
    );
  });

  test('a next of kin’s sign-in reads as theirs, not the owner’s', async ({ page, newDevice }) => {
    const owner = await registerUser(page, { firstName: 'Albert' });
    const kin = owner.nextOfKin;
    const phone = await newDevice();
    await signInAsRecipient(phone, kin.email, owner.emergencyCode);
    await expect(phone.getByRole('heading', { name: `Welcome, ${kin.firstName}` })).toBeVisible();

    await page.goto('/audit-logs');
    const events = page.getByRole('list', { name: 'Your security events, newest first' });
    const signIn = events
      .getByRole('listitem')
      .filter({ hasText: 'signed in with their access code' });
    await expect(signIn).toHaveCount(1);
    // The 'User' entry names the next of kin, not the owner's username.
    await expect(signIn.getByRole('definition').nth(1)).toHaveText(
      `${kin.firstName} ${kin.lastName}, next of kin`,
    );
  });
});

test('a primary user whose device was wiped moves the account to a new device with an emailed code', async ({
  page,
  newDevice,
}) => {
  const owner = await registerUser(page);

  const replacement = await newDevice();
  await openApp(replacement, '/auth');
  await submitSignIn(replacement, owner);
  const denied = replacement.getByRole('alert', { name: 'Device Access Denied' });
  await expect(denied).toContainText('Was your old device lost, replaced or cleared?');
  await denied.getByRole('button', { name: 'Use this device instead' }).click();

  const [local, domain] = owner.email.split('@');
  await expect(denied).toContainText(`We sent a code to ${local?.[0]}`);
  await expect(denied).toContainText(`@${domain}`);
  const code = readCode(await waitForMail(owner.email, /code to use a new device/));

  await denied.getByLabel('Code from the email', { exact: true }).fill('ZZZZ-ZZZZ');
  await denied.getByRole('button', { name: 'Move my account here' }).click();
  await expect(denied).toContainText(MESSAGES.deviceMoveCodeInvalid);

  await denied.getByLabel('Code from the email', { exact: true }).fill(code);
  await denied.getByRole('button', { name: 'Move my account here' }).click();
  await expect(replacement).toHaveURL(/\/$/);
  await expect(
    replacement.getByRole('heading', { name: `Welcome, ${owner.firstName}` }),
  ).toBeVisible();
  await expect(replacement.getByText('This is your primary device')).toBeVisible();
  await waitForMail(owner.email, /account moved to a new device/);

  // The old device is signed out and is no longer the account's device.
  await page.reload();
  await expect(page).toHaveURL(/\/auth$/);
  await submitSignIn(page, owner);
  await expect(page.getByRole('alert', { name: 'Device Access Denied' })).toBeVisible();

  await openAuditLogs(replacement);
  await expect(auditRow(replacement, 'Device reset', 'Success')).toContainText(
    'moved to a new device',
  );
  await expect(auditRow(replacement, 'Device reset', 'Failed')).toBeVisible();
});
