import type { Browser, Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { expect, registerUser, reloadAfterRestart, test, pageOn } from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';

// A care home's manager asks for help from the app and is told when to expect an answer; the
// installation's admin sees the request in the Support tab and marks it answered.

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;

async function scanAtBothSizes(page: Page, label: string) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, test.info(), `${label} (${name})`);
  }
  await page.setViewportSize(VIEWPORTS.phone);
}

async function newPage(browser: Browser, server: OwnServer, ip: string) {
  return pageOn(browser, server, { viewport: VIEWPORTS.phone, ip });
}

test.describe('priority support for a care home', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a manager sends a request and sees the target; the admin sees it first', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const admin = await newPage(browser, server, '10.251.0.1');
    await registerUser(admin, { email: E2E_ADMIN_EMAIL, firstName: 'Agatha' });
    await admin.goto('/admin');
    const enrol = admin.getByRole('region', { name: 'Set up two-step sign-in' });
    await enrol.getByRole('button', { name: 'Begin Setup' }).click();
    const secret = ((await admin.getByTestId('totp-secret').textContent()) ?? '').replace(
      /\s/g,
      '',
    );
    await enrol.getByRole('button', { name: 'Confirm' }).click();
    await enrol
      .getByLabel('6-digit code')
      .fill(new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate());
    await enrol.getByRole('button', { name: 'Confirm' }).click();
    await admin.getByRole('checkbox', { name: 'I have saved these codes' }).check();
    await admin.getByRole('button', { name: 'Continue to the Admin Dashboard' }).click();
    await expect(admin.getByRole('tab', { name: 'Users' })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    const page = await newPage(browser, server, '10.251.0.2');
    const manager = await registerUser(page, { firstName: 'Joan' });
    await server.setTier(manager.username, 'professional');
    await reloadAfterRestart(page);
    await page.getByRole('link', { name: 'Your care home' }).click();
    await page.getByLabel('Care home name').fill('Rosewood House');
    await page.getByRole('button', { name: 'Set up care home' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Rosewood House' })).toBeVisible();

    const help = page.getByRole('region', { name: 'Get help' });
    await expect(help).toContainText('Urgent: We reply within 4 working hours.');
    await scanAtBothSizes(page, 'the get-help form');
    await help.getByRole('button', { name: 'Send request' }).click();
    await expect(help.getByText('Please choose what the problem is about')).toBeVisible();
    await help.getByLabel('What is it about?').selectOption('A resident cannot record');
    await help.getByLabel('How urgent is it?').selectOption({ value: 'urgent' });
    await help
      .getByLabel('What is wrong?')
      .fill('The lounge tablet shows a blank screen when Margaret presses record.');
    await help.getByRole('button', { name: 'Send request' }).click();
    await expect(
      help.getByText(
        /Your request has been sent\. We will answer by email\. We reply within 4 working hours\. Due by/,
      ),
    ).toBeVisible();
    await expect(help.getByRole('list', { name: 'Your requests' })).toContainText(
      'A resident cannot record · Received',
    );
    await scanAtBothSizes(page, 'a sent support request');

    await admin.goto('/admin?tab=support');
    const requests = admin.getByRole('list', { name: 'Support requests' });
    const first = requests.getByRole('listitem').first();
    await expect(first).toContainText('Rosewood House: A resident cannot record');
    await expect(first).toContainText('Professional');
    await expect(first).toContainText('Urgent');
    await expect(first).toContainText('blank screen');
    await scanAtBothSizes(admin, 'the admin Support tab');
    await first.getByRole('button', { name: 'Mark Rosewood House’s request answered' }).click();
    await expect(first).toContainText('Answered');

    await page.reload();
    await expect(page.getByRole('list', { name: 'Your requests' })).toContainText(
      'A resident cannot record · Answered',
    );

    // The home's families see its name before they sign in, and who holds their data.
    const family = await newPage(browser, server, '10.251.0.3');
    await family.goto('/r/rosewood-house#email=susan.hill%40example.test&code=ABCD-EFGH');
    await expect(family.getByRole('heading', { level: 1, name: 'Rosewood House' })).toBeVisible();
    await expect(family.getByText('Powered by Memento')).toBeVisible();
    await expect(family.getByText(/held by Memento, not by Rosewood House/)).toBeVisible();
    await expect(family.getByRole('link', { name: 'Sign in to watch' })).toHaveAttribute(
      'href',
      '/auth#email=susan.hill%40example.test&code=ABCD-EFGH',
    );
    await scanAtBothSizes(family, 'a care home’s page for families');
  });
});
