import type { Locator, Page } from '@playwright/test';
import {
  UUID_PATTERN,
  completeOnboarding,
  expect,
  makeUser,
  openApp,
  readDeviceId,
  registerUser,
  signOutFromDashboard,
  submitRegistration,
  submitSignIn,
  test,
} from './fixtures';

const resetDialog = (page: Page) => page.getByRole('dialog', { name: 'Reset Device Association' });
const emergencyDialog = (page: Page) =>
  page.getByRole('dialog', { name: 'Emergency Device Reset' });
const alreadyRegistered = (page: Page) =>
  page.getByRole('alert', { name: 'Device Already Registered' });

/** On a device that holds an account, a second registration is refused with the reset panel. */
async function expectSecondRegistrationRefused(page: Page) {
  const second = makeUser({ firstName: 'Arthur' });
  await openApp(page, '/auth?mode=community');
  await submitRegistration(page, second);
  const panel = alreadyRegistered(page);
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Reset Device Association' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
  return { second, panel };
}

/**
 * The confirm button waits out a 5-second countdown, then needs the checkbox; after
 * success the page reloads.
 */
async function confirmEmergencyReset(page: Page, dialog: Locator) {
  const confirm = dialog.getByRole('button', { name: /^Reset This Device/ });
  await expect(confirm).toBeDisabled();
  await expect(confirm).toHaveText(/^Reset This Device \([1-5]\)$/);
  await expect(confirm).toHaveText('Reset This Device', { timeout: 8_000 });
  await expect(confirm).toBeDisabled();
  await dialog
    .getByRole('checkbox', { name: 'I understand this browser will get a new device identity' })
    .check();
  await expect(confirm).toBeEnabled();

  const reloaded = page.waitForEvent('load', { timeout: 15_000 });
  await confirm.click();
  await expect(dialog.getByText('Device Reset Successful')).toBeVisible();
  await reloaded;
}

test('another device cannot sign in to an account bound to the device it was created on', async ({
  page,
  newDevice,
}) => {
  const owner = await registerUser(page);

  const otherDevice = await newDevice();
  await openApp(otherDevice, '/auth');
  await submitSignIn(otherDevice, owner);

  const denied = otherDevice.getByRole('alert', { name: 'Device Access Denied' });
  await expect(denied).toBeVisible();
  await expect(denied).toContainText('primary device');
  await expect(denied.getByRole('button', { name: 'Reset Device Association' })).toBeVisible();
  await expect(otherDevice).toHaveURL(/\/auth$/);

  // The owner's own device is unaffected.
  await page.reload();
  await expect(page.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible();
});

test('a second account on a device is refused until the owner frees the device', async ({
  page,
}) => {
  // Two registrations, each with its onboarding, on one device.
  test.slow();
  const owner = await registerUser(page);
  await signOutFromDashboard(page);

  const { second, panel } = await expectSecondRegistrationRefused(page);
  await panel.getByRole('button', { name: 'Reset Device Association' }).click();
  const dialog = resetDialog(page);
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Account password', { exact: true }).fill(owner.password);
  await dialog.getByRole('button', { name: 'Reset Device' }).click();

  await expect(page.getByText('Device Reset Successful').first()).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(alreadyRegistered(page)).toBeHidden();

  await submitRegistration(page, second);
  await completeOnboarding(page);
  await expect(page.getByRole('heading', { name: `Welcome, ${second.firstName}` })).toBeVisible();
});

test('when the owner cannot help, the emergency reset gives this browser a new device identity', async ({
  page,
}) => {
  // Two registrations, each with its onboarding, on one device.
  test.slow();
  await registerUser(page);
  await signOutFromDashboard(page);
  const oldDeviceId = await readDeviceId(page);
  expect(oldDeviceId).toMatch(UUID_PATTERN);

  const { second, panel } = await expectSecondRegistrationRefused(page);
  await panel.getByRole('button', { name: 'Reset Device Association' }).click();
  const dialog = resetDialog(page);
  await dialog.getByLabel('Account password', { exact: true }).fill('Not&The-Password1');
  await dialog.getByRole('button', { name: 'Reset Device' }).click();

  const failed = dialog.getByRole('alert', { name: 'Reset Failed' });
  await expect(failed).toBeVisible();
  await failed.getByRole('button', { name: 'Try Emergency Reset' }).click();
  await expect(dialog).toBeHidden();

  const emergency = emergencyDialog(page);
  await expect(emergency).toBeVisible();
  await expect(emergency).toContainText('new device identity');
  await confirmEmergencyReset(page, emergency);

  const newDeviceId = await readDeviceId(page);
  expect(newDeviceId).toMatch(UUID_PATTERN);
  expect(newDeviceId).not.toBe(oldDeviceId);
  expect(await readDeviceId(page, 'session')).toBe(newDeviceId);

  await openApp(page, '/auth?mode=community');
  await submitRegistration(page, second);
  await completeOnboarding(page);
  await expect(page.getByRole('heading', { name: `Welcome, ${second.firstName}` })).toBeVisible();
});

test('the emergency reset is on the dashboard too, and offers Try Again when it fails', async ({
  page,
}) => {
  const owner = await registerUser(page);
  const oldDeviceId = await readDeviceId(page);

  await page.getByRole('button', { name: 'Emergency Device Reset' }).click();
  const emergency = emergencyDialog(page);
  await expect(emergency).toBeVisible();

  // The first attempt meets a server failure.
  await page.route('**/api/reset-device', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        code: 'INTERNAL',
        message: 'Something went wrong on our side. Please try again.',
      }),
    }),
  );
  const confirm = emergency.getByRole('button', { name: /^Reset This Device/ });
  await expect(confirm).toHaveText('Reset This Device', { timeout: 8_000 });
  await emergency
    .getByRole('checkbox', { name: 'I understand this browser will get a new device identity' })
    .check();
  await confirm.click();
  await expect(emergency).toContainText('Something went wrong on our side. Please try again.');
  await emergency.getByRole('button', { name: 'Try Again' }).click();

  // Back to the warning, countdown and checkbox starting over.
  await page.unroute('**/api/reset-device');
  await expect(
    emergency.getByRole('checkbox', {
      name: 'I understand this browser will get a new device identity',
    }),
  ).not.toBeChecked();
  await confirmEmergencyReset(page, emergency);

  expect(await readDeviceId(page)).not.toBe(oldDeviceId);
  // A new identity is a new device: the account stays with the old one.
  await expect(page).toHaveURL(/\/auth$/);
  await submitSignIn(page, owner);
  await expect(page.getByRole('alert', { name: 'Device Access Denied' })).toBeVisible();
});
