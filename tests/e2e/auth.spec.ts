import type { Request } from '@playwright/test';
import { PASSWORD_REQUIREMENTS } from '../../src/shared/domain/passwords';
import {
  completeOnboarding,
  cookieBanner,
  expect,
  makeUser,
  openApp,
  registerUser,
  signOutFromDashboard,
  submitSignIn,
  test,
} from './fixtures';

const requirement = (id: (typeof PASSWORD_REQUIREMENTS)[number]['id']) => {
  const found = PASSWORD_REQUIREMENTS.find((rule) => rule.id === id);
  if (!found) throw new Error(`no password requirement ${id}`);
  return found.label;
};

test('a new user registers, sets up their next of kin, lands on the dashboard, signs out and signs back in', async ({
  page,
}) => {
  const user = makeUser({ firstName: 'Edith' });

  await page.goto('/auth');
  await expect(cookieBanner(page)).toBeVisible();
  await cookieBanner(page).getByRole('button', { name: 'Accept All' }).click();
  await expect(cookieBanner(page)).toBeHidden();

  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await page.getByRole('button', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();

  await page.getByLabel('First name', { exact: true }).fill(user.firstName);
  await page.getByLabel('Last name', { exact: true }).fill(user.lastName);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Username', { exact: true }).fill(user.username);

  // The checklist follows the password as it is typed.
  const checklist = page.getByRole('list', { name: 'Password requirements' });
  const item = (id: Parameters<typeof requirement>[0]) =>
    checklist.getByRole('listitem').filter({ hasText: requirement(id) });
  await expect(checklist.getByRole('listitem')).toHaveCount(PASSWORD_REQUIREMENTS.length);
  for (const rule of PASSWORD_REQUIREMENTS)
    await expect(item(rule.id)).toHaveText(`Not met: ${rule.label}`);

  const password = page.getByLabel('Password', { exact: true });
  await password.pressSequentially('tulips');
  await expect(item('lowercase')).toHaveText(`Met: ${requirement('lowercase')}`);
  await expect(item('uppercase')).toHaveText(`Not met: ${requirement('uppercase')}`);
  await expect(item('length')).toHaveText(`Not met: ${requirement('length')}`);

  await password.press('Home');
  await password.press('Delete');
  await password.press('T');
  await expect(item('uppercase')).toHaveText(`Met: ${requirement('uppercase')}`);
  await password.press('End');
  await password.pressSequentially('&Tea');
  await expect(item('special')).toHaveText(`Met: ${requirement('special')}`);
  await expect(item('number')).toHaveText(`Not met: ${requirement('number')}`);
  await password.pressSequentially('-2026');
  await expect(password).toHaveValue(user.password);
  for (const rule of PASSWORD_REQUIREMENTS)
    await expect(item(rule.id)).toHaveText(`Met: ${rule.label}`);

  await page.getByLabel('Confirm password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Create Account' }).click();

  const terms = page.getByRole('dialog', { name: 'Terms of Service' });
  await expect(terms).toBeVisible();
  const accept = terms.getByRole('button', { name: 'Accept and Continue' });
  await expect(accept).toBeDisabled();
  await terms
    .getByRole('checkbox', { name: 'I have read and agree to the Terms of Service' })
    .check();
  await expect(accept).toBeEnabled();
  await accept.click();

  // A new primary account is taken through onboarding before anything else.
  await expect(page).toHaveURL(/\/onboarding$/);
  await completeOnboarding(page);

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();
  await expect(page.getByText('Last sync: Never')).toBeVisible();
  const communityNote = page.getByRole('region', { name: 'Community Edition - Local Storage' });
  await expect(communityNote).toBeVisible();
  await expect(page.getByText(`© ${new Date().getFullYear()} Memento`)).toBeVisible();

  await communityNote.getByRole('link', { name: 'View Plans' }).click();
  await expect(page).toHaveURL(/\/features$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Features & Pricing' })).toBeVisible();

  await page.goBack();
  await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();
  await signOutFromDashboard(page);

  // Signed out for real: the dashboard sends us back to sign in.
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);

  // Without enhanced encryption the password goes as typed, in one request: the sign-in settings
  // say so, and no second of working out a proof comes first.
  const signIns: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/login') signIns.push(request);
  });
  await submitSignIn(page, user);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();
  expect(signIns.map((request) => request.postDataJSON())).toEqual([
    expect.objectContaining({ username: user.username, password: user.password }),
  ]);
});

test('the registration form says what is missing or wrong, and opens no terms until it is right', async ({
  page,
}) => {
  await openApp(page, '/auth?mode=community');
  const createAccount = page.getByRole('button', { name: 'Create Account' });
  const terms = page.getByRole('dialog', { name: 'Terms of Service' });

  await createAccount.click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Username is required')).toBeVisible();
  await expect(page.getByText('Password must be at least 12 characters')).toBeVisible();
  await expect(page.getByLabel('First name', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(terms).toBeHidden();

  const user = makeUser();
  await page.getByLabel('First name', { exact: true }).fill(user.firstName);
  await page.getByLabel('Last name', { exact: true }).fill(user.lastName);
  await page.getByLabel('Email', { exact: true }).fill('not-an-email');
  await page.getByLabel('Username', { exact: true }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill('Short&1a');
  await page.getByLabel('Confirm password', { exact: true }).fill('Short&1a');
  await createAccount.click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 12 characters')).toBeVisible();
  await expect(page.getByText('First name is required')).toBeHidden();
  await expect(terms).toBeHidden();

  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(`${user.password}!`);
  await createAccount.click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(page.getByText('Password must be at least 12 characters')).toBeHidden();
  await expect(terms).toBeHidden();

  await page.getByLabel('Confirm password', { exact: true }).fill(user.password);
  await createAccount.click();
  await expect(terms).toBeVisible();
});

test('signing in with the wrong password says so without saying more', async ({ page }) => {
  const user = await registerUser(page);
  await signOutFromDashboard(page);

  await submitSignIn(page, { username: user.username, password: 'Wrong&Password-1' });
  const failure = page.getByRole('alert', { name: 'Login Failed' });
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('Invalid username or password');
  await expect(page).toHaveURL(/\/auth$/);

  // An unknown username gets exactly the same answer.
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/login'));
  await submitSignIn(page, { username: 'nobody-by-this-name', password: 'Wrong&Password-1' });
  expect((await answer).status()).toBe(401);
  await expect(failure).toContainText('Invalid username or password');

  await page.getByLabel('Username', { exact: true }).fill('');
  await page.getByLabel('Password', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
});

test('/auth?mode=community opens registration straight away', async ({ page }) => {
  await openApp(page, '/auth?mode=community');
  await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
  await expect(page.getByLabel('First name', { exact: true })).toBeVisible();
});

test('switching between sign-in and registration clears every field', async ({ page }) => {
  await openApp(page, '/auth');
  await page.getByLabel('Username', { exact: true }).fill('someone');
  await page.getByLabel('Password', { exact: true }).fill('Secret&Stuff-99');

  await page.getByRole('button', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
  for (const label of [
    'First name',
    'Last name',
    'Email',
    'Username',
    'Password',
    'Confirm password',
  ]) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue('');
  }
  await page.getByLabel('First name', { exact: true }).fill('Edith');
  await page.getByLabel('Username', { exact: true }).fill('edith');
  await page.getByLabel('Password', { exact: true }).fill('Secret&Stuff-99');

  await page.getByRole('button', { name: 'Sign in instead' }).click();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByLabel('Username', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');

  await page.getByRole('button', { name: 'Create an account' }).click();
  await expect(page.getByLabel('First name', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Username', { exact: true })).toHaveValue('');
});

test('signing out while the page is still asking who is signed in stays signed out', async ({
  page,
}) => {
  await registerUser(page);
  // On a slow connection the dashboard draws from what the browser kept while it asks the server
  // who is signed in. Here that answer (the user, since it is asked before the sign-out) is held
  // back until the sign-out has finished, as a slow network would.
  let releaseUser = () => {};
  const userHeld = new Promise<void>((resolve) => {
    releaseUser = resolve;
  });
  await page.route(/\/api\/user$/, async (route) => {
    const response = await route.fetch();
    await userHeld;
    // The page may have stopped waiting for it; then there is nothing to answer.
    await route.fulfill({ response }).catch(() => undefined);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  const loggedOut = page.waitForResponse(/\/api\/logout$/);
  await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
  expect((await loggedOut).status()).toBe(200);
  releaseUser();

  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  // The held answer has had its chance to arrive; the page still shows the sign-in.
  await page.waitForTimeout(1_000);
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toHaveCount(0);
});
