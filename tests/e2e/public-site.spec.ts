import type { Page } from '@playwright/test';
import { E2E_DONATION_URL, E2E_SOURCE_CODE_URL } from './support/installation';
import { cookieBanner, expect, openApp, registerUser, test } from './fixtures';
import { expectNoSeriousViolations } from './support/axe';

const heading = (page: Page, name: string, level = 1) =>
  page.getByRole('heading', { level, name, exact: true });

test.describe('About', () => {
  test('tells the story on /about and /about-memento', async ({ page }) => {
    await openApp(page, '/about');
    await expect(heading(page, 'About')).toBeVisible();
    for (const section of [
      'Our mission',
      'Security you can understand',
      'Hybrid storage: your device first',
      'Our privacy commitment',
    ]) {
      await expect(heading(page, section, 2)).toBeVisible();
    }
    await expect(page.getByText('It never holds the video itself or its title.')).toBeVisible();

    await page.goto('/about-memento');
    await expect(heading(page, 'About Memento')).toBeVisible();
    await expect(heading(page, 'Our privacy commitment', 2)).toBeVisible();
  });

  test('shows the donation and source code buttons an installation configures', async ({
    page,
  }) => {
    // The browser tests' server sets DONATION_URL and SOURCE_CODE_URL (support/installation.ts);
    // an installation without them gets null from /api/config (tests/api/system.test.ts).
    await openApp(page, '/about');
    const support = page.getByRole('complementary', { name: 'Support Memento' });
    await expect(support.getByRole('link', { name: /Make a Donation/ })).toHaveAttribute(
      'href',
      E2E_DONATION_URL,
    );
    const code = support.getByRole('link', { name: /View the Source Code/ });
    await expect(code).toHaveAttribute('href', E2E_SOURCE_CODE_URL);
    await expect(code).toHaveAttribute('target', '_blank');
  });
});

test.describe('Support on a phone, on a first visit', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('shows the emergency numbers first, covered by nothing, and asks about cookies only after', async ({
    page,
  }, testInfo) => {
    await page.goto('/support');
    await expect(heading(page, 'Wellbeing and Support Resources')).toBeVisible();
    const call999 = page.getByRole('link', { name: 'United Kingdom 999 (call)', exact: true });
    await call999.scrollIntoViewIfNeeded();
    await expect(call999).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(cookieBanner(page)).toHaveCount(0);
    // Nothing lies over the number: the point a finger would press belongs to the link.
    const isOnTop = await call999.evaluate((link) => {
      const box = link.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return hit !== null && link.contains(hit);
    });
    expect(isOnTop).toBe(true);
    await expect(call999).toHaveAttribute('href', 'tel:999');
    await expectNoSeriousViolations(page, testInfo, 'support, first visit (phone)');

    // Scrolled past the numbers, the question comes, in the page's flow.
    await page.getByRole('heading', { name: 'More ways to find support' }).scrollIntoViewIfNeeded();
    await expect(cookieBanner(page)).toHaveCount(1);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('every support link is named by the words it shows (voice control)', async ({ page }) => {
    await openApp(page, '/support');
    const links = page.getByRole('main').getByRole('link');
    for (const link of await links.all()) {
      const visible = (await link.innerText()).replace(/\s+/g, ' ').trim();
      const name = await link.evaluate(
        (element) => element.getAttribute('aria-label') ?? element.textContent ?? '',
      );
      expect(name.replace(/\s+/g, ' ').trim().startsWith(visible)).toBe(true);
    }
  });
});

test.describe('Wellbeing and Support Resources', () => {
  test('lists checked services by region, with tappable numbers', async ({ page }) => {
    await openApp(page, '/support');
    await expect(heading(page, 'Wellbeing and Support Resources')).toBeVisible();

    const emergency = page.getByRole('region', { name: 'Emergency numbers' });
    for (const [place, number] of [
      ['United Kingdom', '999'],
      ['USA and Canada', '911'],
      ['European Union', '112'],
      ['Australia', '000'],
      ['New Zealand', '111'],
    ] as const) {
      await expect(
        emergency.getByRole('link', { name: `${place} ${number} (call)`, exact: true }),
      ).toHaveAttribute('href', `tel:${number}`);
    }

    const location = page.getByLabel('Your location');
    await expect(location).toHaveValue('united_kingdom');
    await expect(heading(page, 'Services in United Kingdom', 3)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Call 116 123 (Samaritans)' })).toHaveAttribute(
      'href',
      'tel:116123',
    );
    await expect(
      page.getByRole('link', { name: 'Call 0808 808 1677 (Cruse Bereavement Support)' }),
    ).toHaveAttribute('href', 'tel:08088081677');
    await expect(
      page.getByRole('link', { name: 'Call 0800 090 2309 (Marie Curie Support Line)' }),
    ).toHaveAttribute('href', 'tel:08000902309');

    await location.selectOption({ label: 'Australia and New Zealand' });
    await expect(heading(page, 'Services in Australia and New Zealand', 3)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Call 13 11 14 (Lifeline)' })).toHaveAttribute(
      'href',
      'tel:131114',
    );
    await expect(
      page.getByRole('link', { name: 'Call 1737 (1737, Need to talk?)' }),
    ).toHaveAttribute('href', 'tel:1737');
    await expect(page.getByRole('link', { name: 'Call 116 123 (Samaritans)' })).toHaveCount(0);

    await location.selectOption({ label: 'North America' });
    await expect(
      page.getByRole('link', { name: 'Call 988 (9-8-8: Suicide Crisis Helpline)' }),
    ).toHaveAttribute('href', 'tel:988');
    await expect(
      page.getByRole('link', { name: 'Call 988 (988 Suicide & Crisis Lifeline)' }),
    ).toHaveAttribute('href', 'tel:988');

    // A region with no checked service says so and points to the emergency numbers instead.
    await location.selectOption({ label: 'Asia' });
    await expect(
      page.getByText('We have not yet been able to check services in Asia'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: /^Call / })).toHaveCount(0);

    await expect(
      page.getByRole('link', { name: 'Befrienders Worldwide (opens in a new tab)' }),
    ).toHaveAttribute('href', 'https://www.befrienders.org');
  });
});

test('the FAQ answers six questions that open and close', async ({ page }) => {
  await openApp(page, '/faq');
  await expect(heading(page, 'Frequently Asked Questions')).toBeVisible();
  const questions = page.getByRole('main').getByRole('button', { expanded: false });
  await expect(questions).toHaveCount(6);

  const uninstall = page.getByRole('button', {
    name: 'What happens if I uninstall the app or clear my browser?',
  });
  const answer = page.getByText('deletes them, and we cannot get them back', { exact: false });
  await expect(answer).toBeHidden();
  await uninstall.click();
  await expect(uninstall).toHaveAttribute('aria-expanded', 'true');
  await expect(answer).toBeVisible();
  await uninstall.click();
  await expect(uninstall).toHaveAttribute('aria-expanded', 'false');
  await expect(answer).toBeHidden();

  const nextOfKin = page.getByRole('button', {
    name: 'What happens if I lose access, or something happens to me?',
  });
  await nextOfKin.press('Enter');
  await expect(page.getByText('They receive an emergency code by email.')).toBeVisible();
});

test.describe('Features & Pricing', () => {
  test('shows the plans, devices, privacy and feature status to a visitor', async ({ page }) => {
    await openApp(page, '/features');
    await expect(heading(page, 'Features & Pricing')).toBeVisible();
    for (const section of [
      'Plans for individuals and families',
      'Plans for care homes and organisations',
      'How devices work',
      'Your privacy, exactly',
      'What works today',
    ]) {
      await expect(heading(page, section, 2)).toBeVisible();
    }

    const plan = (name: string) => page.getByRole('listitem', { name, exact: true });
    await expect(plan('Community Edition')).toContainText('Free forever');
    await expect(plan('Standard')).toContainText('£4.99 a month');
    await expect(plan('Standard')).toContainText('Special offer');
    await expect(plan('Premium')).toContainText('£9.99 a month');
    await expect(plan('Premium')).toContainText('Most popular');
    await expect(plan('Professional')).toContainText('£24.99 a month');
    await expect(plan('Enterprise')).toContainText('Contact only');
    await expect(plan('Enterprise').getByRole('link')).toHaveCount(0);
    await expect(plan('Nonprofit')).toContainText('50% off Enterprise');
    await expect(page.getByText('Care homes can try them free for 30 days.')).toBeVisible();

    await expect(page.getByText('your videos themselves')).toBeVisible();
    const status = (name: string) =>
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
    await expect(status('One-file backups')).toContainText('Complete');
    await expect(status('Moving to a new device')).toContainText('In Progress');
    await expect(status('Cloud sync')).toContainText('Complete');
    await expect(status('Background sync')).toContainText('Complete');
    // The privacy section says what cloud sync keeps on the server.
    await expect(page.getByText('its title and the prompt you chose')).toBeVisible();
  });

  test('signed out, the free plan leads to registration and a paid plan to sign in', async ({
    page,
  }) => {
    await openApp(page, '/features');
    await page.getByRole('link', { name: 'Start for Free' }).click();
    await expect(page).toHaveURL(/\/auth\?mode=community$/);
    await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();

    await page.goBack();
    await page.getByRole('link', { name: 'Choose Premium' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  });

  test('signed in, a chosen plan is remembered and shows Coming Soon', async ({ page }) => {
    test.slow();
    await registerUser(page);
    await page.goto('/features');
    const community = page.getByRole('listitem', { name: 'Community Edition', exact: true });
    await expect(community).toContainText('Your current plan');

    const premium = page.getByRole('listitem', { name: 'Premium', exact: true });
    await premium.getByRole('button', { name: 'Choose Premium' }).click();
    await expect(premium.getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
    await expect(premium.getByRole('status')).toContainText('We have noted that you chose Premium');

    await page.reload();
    await expect(premium.getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
    await expect(
      page
        .getByRole('listitem', { name: 'Standard', exact: true })
        .getByRole('button', { name: 'Choose Standard' }),
    ).toBeEnabled();

    await page.goto('/premium');
    await expect(heading(page, 'Upgrade to Premium')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
    await expect(page.getByRole('main').getByRole('status')).toContainText(
      'We have noted that you chose Premium.',
    );
  });
});

test('every page that sells Professional shows its organisation parts with the features page’s status', async ({
  page,
}, testInfo) => {
  test.slow();
  const sold = {
    'Custom branding': 'Custom branding for organisations',
    'Bulk management': 'Bulk management for organisations',
    'Priority support': 'Priority support for organisations',
  };
  const statusWord = /^(Complete|In Progress|Started|Planned)$/;

  // The words the features page's list of what works today gives each.
  await openApp(page, '/features');
  const words = new Map<string, string>();
  for (const [line, entry] of Object.entries(sold)) {
    const item = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: entry, exact: true }) });
    words.set(line, (await item.getByText(statusWord).textContent()) ?? '');
  }
  // A finished part is sold plainly, with a tick; one not finished carries its status word.
  const shown = (line: string) => {
    const word = words.get(line)!;
    return word === 'Complete' ? line : `${line}: ${word}`;
  };
  const inSentence = (line: string) => {
    const word = words.get(line)!;
    return word === 'Complete' ? line.toLowerCase() : `${line.toLowerCase()} (${word})`;
  };

  const expectMarked = async (where: string) => {
    const card = page.getByRole('listitem', { name: 'Professional', exact: true });
    for (const [line, word] of words) {
      const item = card.getByRole('listitem').filter({ hasText: line });
      // An unfinished part's word is seen beside the line and read with it: 'Custom branding: Planned'.
      if (word !== 'Complete') {
        await expect(item.getByText(word, { exact: true }), `${where}: ${line}`).toBeVisible();
      }
      await expect(item, `${where}: ${line}`).toHaveText(shown(line));
    }
    await expectNoSeriousViolations(page, testInfo, where);
  };

  await expectMarked('/features');
  // The sentence about the organisation plans marks them too.
  await expect(
    page.getByText(
      `Organisation plans add ${inSentence('Custom branding')}, ${inSentence('Bulk management')} and ${inSentence('Priority support')}.`,
      { exact: false },
    ),
  ).toBeVisible();

  await page.goto('/premium');
  await expect(heading(page, 'Upgrade to Premium')).toBeVisible();
  await expectMarked('/premium');

  await page.goto('/marketing');
  await page.getByRole('button', { name: 'Slide 6: Pricing Plans' }).click();
  await expect(heading(page, 'Pricing Plans', 2)).toBeVisible();
  await expectMarked('/marketing, pricing slide');

  await page.goto('/faq');
  await page.getByRole('button', { name: 'How much can I store?' }).click();
  await expect(page.getByText('What each paid plan includes:')).toBeVisible();
  await expectMarked('/faq, plan contents');
});

test.describe('the care-home deck', () => {
  const counter = (page: Page) => page.getByTestId('slide-counter');

  test('moves by buttons, dots and arrow keys, wrapping at both ends', async ({ page }) => {
    await openApp(page, '/marketing');
    await expect(heading(page, 'Memento for Care Homes')).toBeVisible();
    await expect(counter(page)).toHaveText('Slide 1 of 8');
    await expect(heading(page, 'Memento for Care Homes', 2)).toBeVisible();

    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(counter(page)).toHaveText('Slide 8 of 8');
    await expect(heading(page, 'Get Started', 2)).toBeVisible();
    await expect(heading(page, 'Memento for Care Homes', 2)).toBeHidden();

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(counter(page)).toHaveText('Slide 1 of 8');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(counter(page)).toHaveText('Slide 2 of 8');
    await expect(heading(page, 'The Challenge', 2)).toBeVisible();

    const pricingDot = page.getByRole('button', { name: 'Slide 6: Pricing Plans' });
    await pricingDot.click();
    await expect(pricingDot).toHaveAttribute('aria-current', 'step');
    await expect(counter(page)).toHaveText('Slide 6 of 8');
    await expect(heading(page, 'Pricing Plans', 2)).toBeVisible();
    await expect(page.getByText('£9.99 a month')).toBeVisible();
    await expect(page.getByText('try the organisation plans free for 30 days')).toBeVisible();

    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText('Slide 7 of 8');
    await expect(heading(page, 'Benefits for Care Homes', 2)).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText('Slide 1 of 8');
    await page.keyboard.press('ArrowLeft');
    await expect(counter(page)).toHaveText('Slide 8 of 8');
  });

  test('prints one slide per page: eight pages', async ({ page }) => {
    await openApp(page, '/marketing');
    await expect(page.getByRole('button', { name: 'Print / PDF' })).toBeVisible();
    await page.getByRole('button', { name: 'Slide 3: Our Solution' }).click();
    await expect(counter(page)).toHaveText('Slide 3 of 8');

    await page.emulateMedia({ media: 'print' });
    for (const title of ['Memento for Care Homes', 'The Challenge', 'Get Started']) {
      await expect(heading(page, title, 2)).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Next' })).toBeHidden();
    await expect(page.getByRole('banner')).toBeHidden();

    const pdf = (await page.pdf({ printBackground: true })).toString('latin1');
    const pages = pdf.match(/\/Type\s*\/Page(?!s)/g) ?? [];
    expect(pages).toHaveLength(8);
  });
});

test('the upgrade and import pages say what they offer', async ({ page }) => {
  await openApp(page, '/premium');
  await expect(heading(page, 'Upgrade to Premium')).toBeVisible();
  await expect(page.getByText('£9.99 a month')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in to upgrade' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  await page.goto('/import-from-mobile');
  await expect(heading(page, 'Import from Mobile')).toBeVisible();
  await expect(heading(page, 'How it works', 2)).toBeVisible();
  await expect(
    page.getByText('Importing is part of the Standard, Premium and Professional plans'),
  ).toBeVisible();
});
