import type { Page, TestInfo } from '@playwright/test';
import {
  acceptTerms,
  completeOnboarding,
  cookieBanner,
  cookieDialog,
  expect,
  fillNextOfKin,
  fillRegistration,
  makeUser,
  openApp,
  registerUser,
  submitRegistration,
  submitSignIn,
  termsDialog,
  test,
  tickAllBoxes,
} from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { recordFor } from './support/recording';

// Registration and every onboarding step are clicked through at a phone's size and scanned at
// both sizes by the tests 'registration, the terms of service…' and 'the onboarding steps…'. The tests that
// only need a signed-in account to reach their pages make it with `registerUser` (the app's own
// requests): the same account, without clicking through the same forms again.
const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;

/** Every public route with its page title; /admin is scanned by the admin tests. */
const PUBLIC_PAGES = [
  { path: '/about', heading: 'About' },
  { path: '/about-memento', heading: 'About Memento' },
  { path: '/support', heading: 'Wellbeing and Support Resources' },
  { path: '/faq', heading: 'Frequently Asked Questions' },
  { path: '/features', heading: 'Features & Pricing' },
  { path: '/marketing', heading: 'Memento for Care Homes' },
  { path: '/premium', heading: 'Upgrade to Premium' },
  { path: '/import-from-mobile', heading: 'Import from Mobile' },
  { path: '/station', heading: 'Recording station' },
  { path: '/no-such-page', heading: 'Page Not Found' },
] as const;

const SIGNED_OUT_PAGES = [
  { path: '/auth', heading: 'Sign In' },
  { path: '/auth?mode=community', heading: 'Create Your Account' },
  ...PUBLIC_PAGES,
] as const;

/**
 * Shows another route in the app already open, as its own links do (the router follows the
 * address), scrolled to the top as a fresh page is. Each route's own full load is opened by the
 * public-site and shell tests; loading the whole app again for every route scanned here cost
 * more of the browser's time than the scans (docs/benchmarks.md, 'CI time').
 */
async function showRoute(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(path);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * Scans the page as it stands at each size, a phone's and then a laptop's, and leaves it at the
 * phone's. The layout is CSS alone (no script reads the window's size), so a page resized is laid
 * out exactly as one opened at that size; each flow is walked once and every state of it scanned
 * at both sizes.
 */
async function scanAtBothSizes(page: Page, testInfo: TestInfo, label: string) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, testInfo, `${label} (${name})`);
  }
  await page.setViewportSize(VIEWPORTS.phone);
}

test.describe('accessibility on a phone and on a laptop', () => {
  test.use({ viewport: VIEWPORTS.phone });

  test('the cookie banner of a first visit, and its full settings', async ({ page }, testInfo) => {
    await page.goto('/auth');
    await expect(cookieBanner(page)).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'cookie banner');
    await cookieBanner(page).getByRole('button', { name: 'Choose Cookies' }).click();
    await expect(cookieDialog(page)).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'cookie dialog');
  });

  test('signed-out pages', async ({ page }, testInfo) => {
    // Eleven pages, each scanned at two sizes: on a busy machine more than the default minute.
    test.slow();
    await openApp(page, '/auth');
    for (const { path, heading } of SIGNED_OUT_PAGES) {
      await showRoute(page, path);
      await expect(
        page.getByRole('heading', { level: 1, name: heading, exact: true }),
      ).toBeVisible();
      // The About page with the buttons the installation configures: scanned here, not again.
      if (path === '/about')
        await expect(page.getByRole('link', { name: /Make a Donation/ })).toBeVisible();
      await scanAtBothSizes(page, testInfo, path);
    }
  });

  test('the open states of the public pages', async ({ page }, testInfo) => {
    // Nine states, each scanned at two sizes.
    test.slow();
    await openApp(page, '/faq');
    const questions = page.getByRole('main').getByRole('button', { expanded: false });
    await expect(questions).toHaveCount(6);
    while ((await questions.count()) > 0) await questions.first().click();
    await scanAtBothSizes(page, testInfo, 'every FAQ answer open');

    await showRoute(page, '/support');
    await page.getByLabel('Your location').selectOption({ label: 'Asia' });
    await expect(
      page.getByText('We have not yet been able to check services in Asia'),
    ).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'support without services');

    await showRoute(page, '/marketing');
    for (let slide = 2; slide <= 8; slide += 1) {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByTestId('slide-counter')).toHaveText(`Slide ${slide} of 8`);
      await scanAtBothSizes(page, testInfo, `deck slide ${slide}`);
    }
  });

  test('the public pages signed in, and a chosen plan', async ({ page }, testInfo) => {
    test.slow();
    await registerUser(page);
    for (const { path, heading } of PUBLIC_PAGES) {
      await showRoute(page, path);
      await expect(
        page.getByRole('heading', { level: 1, name: heading, exact: true }),
      ).toBeVisible();
      await scanAtBothSizes(page, testInfo, `${path} signed in`);
    }
    // A care home's page for an account not on Professional: the way to the plan.
    await showRoute(page, '/care-home');
    await expect(page.getByRole('heading', { level: 1, name: 'Your care home' })).toBeVisible();
    await expect(page.getByText('Care-home tools come with Professional')).toBeVisible();
    await scanAtBothSizes(page, testInfo, '/care-home without Professional');
    await showRoute(page, '/features');
    await page.getByRole('button', { name: 'Choose Standard' }).click();
    await expect(page.getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
    await scanAtBothSizes(page, testInfo, 'a chosen plan');
  });

  test('registration, the terms of service, the dashboard and its reset dialog', async ({
    page,
  }, testInfo) => {
    // Registration and the whole onboarding come before the dashboard is scanned.
    test.slow();
    await openApp(page, '/auth?mode=community');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'registration errors');

    const user = makeUser();
    await fillRegistration(page, user);
    await expect(termsDialog(page)).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'terms of service dialog');

    await acceptTerms(page);
    await completeOnboarding(page);
    await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'dashboard');

    await page.getByRole('button', { name: 'Emergency Device Reset' }).click();
    await expect(page.getByRole('dialog', { name: 'Emergency Device Reset' })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'emergency reset dialog');
  });

  test('the forgot-password, reset-password and emergency access views', async ({
    page,
  }, testInfo) => {
    await openApp(page, '/auth');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('button', { name: 'Send Reset Code' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'forgot password');

    await page.getByLabel('Email', { exact: true }).fill('someone@example.test');
    await page.getByRole('button', { name: 'Send Reset Code' }).click();
    await expect(page.getByRole('alert', { name: 'Reset Instructions Sent' })).toBeVisible();
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Code is required')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'reset password');

    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.getByRole('button', { name: 'Emergency access for next of kin' }).click();
    await page.getByLabel('Your email', { exact: true }).fill('someone@example.test');
    await page.getByLabel('Emergency code', { exact: true }).fill('ABCD-EFGH-JKLM-NP23');
    await page.getByLabel('New password for their account', { exact: true }).fill('Short');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Password must be at least 12 characters')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'emergency access');
  });

  test('the onboarding steps and the emergency code', async ({ page }, testInfo) => {
    const user = makeUser();
    await openApp(page, '/auth?mode=community');
    await submitRegistration(page, user);
    await expect(page.getByRole('heading', { name: 'Why This Matters' })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'onboarding step 1');
    await tickAllBoxes(page);
    await page.getByRole('button', { name: 'Continue' }).click();

    await fillNextOfKin(page, {
      firstName: 'Susan',
      lastName: 'Hughes',
      email: 'not-an-email',
      phone: '0207 946 0018',
      relationship: 'Daughter',
    });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'onboarding step 2');
    await page.getByLabel('Email', { exact: true }).fill(`kin-${user.username}@example.test`);
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page.getByRole('heading', { name: 'Emergency Access Setup' })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'onboarding step 3');
    await tickAllBoxes(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Review & Confirm' })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'onboarding step 4');

    await page.getByRole('button', { name: 'Complete Setup' }).click();
    await expect(page.getByTestId('emergency-code')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'emergency code');
  });

  test('recording, the recipients page, a recipient’s videos and the player', async ({
    page,
  }, testInfo) => {
    test.slow();
    await registerUser(page);
    await page.getByRole('link', { name: 'Record New Video Message' }).click();
    await page.getByRole('button', { name: 'Turn On Camera' }).click();
    await expect(page.getByText('Please give your message a title')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'record page errors');

    await page.getByLabel('Message title').fill('A song for you');
    await page.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });
    await page.getByLabel('Prompt (optional)').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Turn On Camera' }).click();
    await expect(page.getByRole('button', { name: 'Start Recording' })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'camera on');
    await recordFor(page, 2);
    await scanAtBothSizes(page, testInfo, 'recording preview');
    await page.getByRole('button', { name: 'Save Message' }).click();
    await expect(page).toHaveURL(/\/$/);

    await page.getByRole('link', { name: 'Manage Recipients' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Your Recipients' })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'recipients');
    await page
      .getByRole('button', { name: /^View Videos for / })
      .first()
      .click();
    await expect(page.getByText('A song for you', { exact: true })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'a recipient’s videos');
    await page.getByRole('button', { name: 'Play A song for you' }).click();
    await expect(page.getByTestId('video-player')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'video player');
  });

  test('the password dialog, the security log, moving device and setting a password', async ({
    page,
    newDevice,
  }, testInfo) => {
    // A registration, a second device and three states, each scanned at two sizes.
    test.slow();
    const user = await registerUser(page);

    await page.getByRole('button', { name: 'Reset Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    await expect(dialog.getByText('Current password is required')).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'reset password dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('link', { name: 'View Security Audit Logs' }).click();
    await expect(page.getByText('Setup completed').filter({ visible: true })).toBeVisible();
    await scanAtBothSizes(page, testInfo, 'security audit logs');

    const replacement = await newDevice();
    await openApp(replacement, '/auth');
    await submitSignIn(replacement, user);
    const denied = replacement.getByRole('alert', { name: 'Device Access Denied' });
    await denied.getByRole('button', { name: 'Use this device instead' }).click();
    await expect(denied.getByLabel('Code from the email', { exact: true })).toBeVisible();
    await scanAtBothSizes(replacement, testInfo, 'moving device');
  });
});

test('the dashboard banner moves for a few seconds, then rests on its picture (WCAG 2.2.2)', async ({
  page,
}) => {
  await registerUser(page);
  const video = page.locator('section video');
  const state = () =>
    video.evaluate((element: HTMLVideoElement) => ({
      paused: element.paused,
      time: element.currentTime,
    }));
  await expect.poll(async () => (await state()).time, { timeout: 15_000 }).toBeGreaterThan(1);
  await expect.poll(async () => (await state()).paused, { timeout: 15_000 }).toBe(true);
  const rested = await state();
  expect(rested.time).toBeGreaterThan(3.5);
  expect(rested.time).toBeLessThanOrEqual(5);
  // And it stays at rest.
  await page.waitForTimeout(1_000);
  expect(await state()).toEqual(rested);
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('the dashboard banner stands still and the deck does not animate', async ({ page }) => {
    await registerUser(page);
    const banner = page.locator('section').filter({ has: page.getByRole('heading', { level: 1 }) });
    await expect(banner.locator('img[src="/media/banner-poster.jpg"]')).toBeVisible();
    await expect(banner.locator('video')).toHaveCount(0);

    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect(banner.locator('video')).toHaveCount(1);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect(banner.locator('video')).toHaveCount(0);

    await page.goto('/marketing');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByTestId('slide-counter')).toHaveText('Slide 2 of 8');
    // The slide appears at once: no fade is applied when motion is reduced.
    const slide = page.getByRole('group', { name: 'The Challenge' });
    await expect(slide).toBeVisible();
    expect(await slide.evaluate((element) => getComputedStyle(element).animationName)).toBe('none');
  });
});

/** WCAG 1.4.10: nothing scrolls sideways on a 320 px screen. */
test.describe('reflow on a 320 px screen', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  const overflow = (page: Page) =>
    page.evaluate(() => ({
      width: document.documentElement.scrollWidth,
      wider: [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 3)
        .map((element) => element.outerHTML.slice(0, 120)),
    }));

  test('every public route, each slide of the deck, and the signed-in pages fit', async ({
    page,
  }) => {
    test.slow();
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    expect(await overflow(page), '/auth before any cookie choice').toEqual({
      width: 320,
      wider: [],
    });
    // The public pages are among the signed-out pages: each is laid out once.
    for (const { path, heading } of SIGNED_OUT_PAGES) {
      await showRoute(page, path);
      await expect(
        page.getByRole('heading', { level: 1, name: heading, exact: true }),
      ).toBeVisible();
      expect(await overflow(page), path).toEqual({ width: 320, wider: [] });
    }
    await showRoute(page, '/marketing');
    for (let slide = 2; slide <= 8; slide += 1) {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByTestId('slide-counter')).toHaveText(`Slide ${slide} of 8`);
      expect(await overflow(page), `deck slide ${slide}`).toEqual({ width: 320, wider: [] });
    }

    await registerUser(page);
    for (const path of ['/', '/recipients', '/record', '/audit-logs', '/care-home']) {
      await showRoute(page, path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await overflow(page), `${path} signed in`).toEqual({ width: 320, wider: [] });
    }
  });
});
