import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import {
  acceptTerms,
  completeOnboarding,
  cookieDialog,
  expect,
  fillRegistration,
  makeUser,
  openApp,
  termsDialog,
  test,
} from './fixtures';

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;

const SIGNED_OUT_PAGES = [
  { path: '/auth', heading: 'Sign In' },
  { path: '/auth?mode=community', heading: 'Create Your Account' },
  { path: '/features', heading: 'Features & Pricing' },
  { path: '/about', heading: 'About' },
  { path: '/no-such-page', heading: 'Page Not Found' },
] as const;

/** Waits for transitions (dialogs fade and slide in) to end, so colours are measured as seen. */
async function waitForStillness(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  );
}

/**
 * Runs axe (every rule it enables by default: WCAG 2.x A/AA and best practice) and fails on any
 * serious or critical violation. Lesser findings are attached to the report to be read.
 */
async function expectNoSeriousViolations(page: Page, testInfo: TestInfo, label: string) {
  await waitForStillness(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const describe = (list: typeof violations) =>
    list.map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  const blocking = violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const minor = violations.filter((violation) => !blocking.includes(violation));
  if (minor.length > 0) {
    await testInfo.attach(`axe ${label} (moderate/minor)`, {
      body: JSON.stringify(describe(minor), null, 2),
      contentType: 'application/json',
    });
    testInfo.annotations.push({
      type: 'axe',
      description: `${label}: ${minor.map((violation) => `${violation.id} (${violation.impact})`).join(', ')}`,
    });
  }
  expect(describe(blocking), `serious or critical accessibility problems on ${label}`).toEqual([]);
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`accessibility on a ${name}`, () => {
    test.use({ viewport });

    test('the cookie dialog of a first visit', async ({ page }, testInfo) => {
      await page.goto('/auth');
      await expect(cookieDialog(page)).toBeVisible();
      await expectNoSeriousViolations(page, testInfo, `cookie dialog (${name})`);
    });

    test('signed-out pages', async ({ page }, testInfo) => {
      await openApp(page, '/auth');
      for (const { path, heading } of SIGNED_OUT_PAGES) {
        await page.goto(path);
        await expect(
          page.getByRole('heading', { level: 1, name: heading, exact: true }),
        ).toBeVisible();
        await expectNoSeriousViolations(page, testInfo, `${path} (${name})`);
      }
    });

    test('registration, the terms of service, the dashboard and its reset dialog', async ({
      page,
    }, testInfo) => {
      await openApp(page, '/auth?mode=community');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByText('First name is required')).toBeVisible();
      await expectNoSeriousViolations(page, testInfo, `registration errors (${name})`);

      const user = makeUser();
      await fillRegistration(page, user);
      await expect(termsDialog(page)).toBeVisible();
      await expectNoSeriousViolations(page, testInfo, `terms of service dialog (${name})`);

      await acceptTerms(page);
      await completeOnboarding(page);
      await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();
      await expectNoSeriousViolations(page, testInfo, `dashboard (${name})`);

      await page.getByRole('button', { name: 'Emergency Device Reset' }).click();
      await expect(page.getByRole('dialog', { name: 'Emergency Device Reset' })).toBeVisible();
      await expectNoSeriousViolations(page, testInfo, `emergency reset dialog (${name})`);
    });
  });
}
