import { randomUUID } from 'node:crypto';
import type { Browser, Page, Request } from '@playwright/test';
import { CARE_TEAM_MESSAGES } from '../../src/shared/schemas/care-team';
import type { TEncryptionState } from '../../src/shared/schemas/encryption';
import {
  EMERGENCY_CODE_PATTERN,
  expect,
  registerPremiumUser,
  registerUser,
  reloadAfterRestart,
  test,
  pageOn,
} from './fixtures';
import { signInAddingThisDevice } from './support/devices';
import { turnOnEncryption } from './support/encryption';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { callApi, storedCopyStart } from './support/page-api';
import { signInAsRecipient } from './support/recipients';
import { expectCloudCopyPlays, requestCarries } from './support/sealed-messages';
import {
  attachScreenshot,
  carerJoinsWithPin,
  expectStationHoldsNothing,
  scanAtBothSizes,
  STATION_VIEWPORTS,
} from './support/stations';

// A resident with enhanced encryption on records at a care home's station: the carer hands them
// the tablet, they type their own password (a wrong one is said plainly), the take is sealed in
// the tablet's browser before it leaves, their granddaughter's card opens it, and after Finish
// the tablet holds no key, no password and no video; the next session asks for the password again.

const MARGARET_PASSWORD = 'Roses&Marmalade-1931';
const WRONG_PASSWORD = 'Violets&Toast-1930';

async function newPage(
  browser: Browser,
  server: OwnServer,
  viewport: { width: number; height: number } = STATION_VIEWPORTS.laptop,
) {
  return pageOn(browser, server, { viewport });
}

/** The carer signs in with their PIN and chooses Margaret. */
async function openSessionForMargaret(tablet: Page) {
  await expect(tablet.getByRole('heading', { name: 'Who is helping today?' })).toBeVisible();
  await tablet.getByRole('button', { name: 'Jane Doe' }).click();
  await tablet.getByLabel('Jane Doe, please type your PIN').fill('4821');
  await tablet.getByRole('button', { name: 'Sign in' }).click();
  await expect(tablet.getByRole('heading', { name: 'Who is recording?' })).toBeVisible();
  await tablet.getByRole('button', { name: 'Margaret Hill' }).click();
}

test.describe('a sealed resident at a care home’s recording station', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('they type their own password, the take is sealed before it leaves, their granddaughter watches it, and the tablet keeps no key', async ({
    browser,
  }) => {
    test.setTimeout(420_000);
    // The manager sets up the home and invites a carer, who joins with a PIN.
    const office = await newPage(browser, server);
    const manager = await registerUser(office, { firstName: 'Joan' });
    await server.setTier(manager.username, 'professional');
    await reloadAfterRestart(office);
    await office.getByRole('link', { name: 'Your care home' }).click();
    await office.getByLabel('Care home name').fill('Rosewood House');
    await office.getByRole('button', { name: 'Set up care home' }).click();
    await expect(office.getByRole('heading', { level: 2, name: 'Rosewood House' })).toBeVisible();
    await office.getByLabel('First name').fill('Jane');
    await office.getByLabel('Last name').fill('Doe');
    await office.getByLabel('Email').fill('jane.doe@example.test');
    await office.getByRole('button', { name: 'Send invitation' }).click();
    await expect(office.getByText('jane.doe@example.test · Invited')).toBeVisible();
    await carerJoinsWithPin(await newPage(browser, server), server, {
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.test',
      homeName: 'Rosewood House',
      pin: '4821',
    });

    // Margaret, on her own tablet, turns on enhanced encryption and gives Anna a card.
    const own = await newPage(browser, server);
    const margaret = await registerPremiumUser(own, server, {
      firstName: 'Margaret',
      lastName: 'Hill',
      password: MARGARET_PASSWORD,
    });
    await turnOnEncryption(own, margaret);
    const anna = { email: `anna-${randomUUID().slice(0, 8)}@example.test` };
    await own.goto('/recipients');
    await own.getByRole('button', { name: 'Add Recipient' }).click();
    const form = own.getByRole('dialog', { name: 'Add Recipient' });
    await form.getByLabel('First name').fill('Anna');
    await form.getByLabel('Last name').fill('Hill');
    await form.getByLabel('Email').fill(anna.email);
    await form.getByRole('radio', { name: /^Family/ }).check();
    await form.getByRole('button', { name: 'Add Recipient' }).click();
    const cardDialog = own.getByRole('dialog', { name: 'Anna’s Memento card' });
    await expect(cardDialog).toBeVisible({ timeout: 20_000 });
    const annaCode = ((await cardDialog.getByTestId('access-code').textContent()) ?? '').trim();
    expect(annaCode).toMatch(EMERGENCY_CODE_PATTERN);
    await cardDialog.getByRole('button', { name: 'Done' }).click();
    const keys = await callApi<TEncryptionState>(own, 'GET', '/api/encryption');
    if (keys.state !== 'on') throw new Error('enhanced encryption is not on');

    // She moved into the home, which records her consent (set-up, straight in its database).
    await server.writeWhileStopped(
      `insert into care_home_residents (care_home_id, user_id, room, import_key, consent_basis, consent_recorded_at)
       select h.id, u.id, '12', 'margaret hill 12', 'resident', now()
       from care_homes h, users u where h.name = $1 and u.username = $2`,
      ['Rosewood House', margaret.username],
    );

    // The manager makes the home's tablet the station; from here every request it sends is kept.
    const tablet = await newPage(browser, server);
    const sent: Request[] = [];
    tablet.context().on('request', (request) => sent.push(request));
    await signInAddingThisDevice(tablet, server, manager);
    await tablet.goto('/care-home');
    await tablet.getByLabel("The tablet's name").fill('Lounge tablet');
    await tablet.getByRole('button', { name: 'Make this tablet a recording station' }).click();
    await tablet.getByRole('button', { name: 'Yes, make it a station' }).click();

    // The carer chooses Margaret: the tablet is for her hands now, in large plain words.
    await openSessionForMargaret(tablet);
    await expect(
      tablet.getByRole('heading', { name: 'Please hand the tablet to Margaret Hill' }),
    ).toBeVisible();
    await expect(
      tablet.getByText('To record here, Margaret Hill types their own password.'),
    ).toBeVisible();
    await scanAtBothSizes(tablet, 'a sealed resident’s password');
    await tablet.setViewportSize(STATION_VIEWPORTS.phone);
    await attachScreenshot(tablet, 'station-sealed-password-phone.png');
    await tablet.setViewportSize(STATION_VIEWPORTS.laptop);

    // Without her password there is no other way, and the screen says so.
    await tablet.getByRole('button', { name: 'I do not know my password' }).click();
    await expect(
      tablet.getByRole('heading', { name: 'Sealed messages need Margaret Hill’s own password' }),
    ).toBeVisible();
    await expect(
      tablet.getByText(
        'Without their password, messages cannot be recorded for them on this tablet.',
      ),
    ).toBeVisible();
    await expect(tablet.getByRole('button', { name: 'Start recording' })).toHaveCount(0);
    await scanAtBothSizes(tablet, 'a sealed resident without their password');
    await tablet.setViewportSize(STATION_VIEWPORTS.phone);
    await attachScreenshot(tablet, 'station-sealed-no-password-phone.png');
    await tablet.setViewportSize(STATION_VIEWPORTS.laptop);
    await tablet.getByRole('button', { name: 'Type the password' }).click();

    // A wrong password is said plainly; the right one opens the recording screen.
    const passwordField = tablet.getByLabel('Margaret Hill, please type your password');
    await passwordField.fill(WRONG_PASSWORD);
    await tablet.getByRole('button', { name: 'Unlock and record' }).click();
    await expect(tablet.getByText('That password is not right. Please try again.')).toBeVisible({
      timeout: 30_000,
    });
    await expect(tablet.getByRole('button', { name: 'Start recording' })).toHaveCount(0);
    await passwordField.fill(MARGARET_PASSWORD);
    await tablet.getByRole('button', { name: 'Unlock and record' }).click();
    await expect(tablet.getByRole('heading', { name: 'Recording for Margaret Hill' })).toBeVisible({
      timeout: 30_000,
    });

    // She records and saves for Anna; a sealed message is not offered to the care team, and the
    // tablet says why.
    await tablet.getByRole('button', { name: 'Start recording' }).click();
    await expect(tablet.getByRole('button', { name: 'Stop recording' })).toBeVisible();
    await tablet.waitForTimeout(4500);
    await tablet.getByRole('button', { name: 'Stop recording' }).click();
    await expect(tablet.getByRole('heading', { name: 'Watch it back' })).toBeVisible();
    await tablet.getByRole('radio', { name: 'Anna Hill' }).check();
    await expect(tablet.getByText(/Also share with the care team/)).toHaveCount(0);
    await expect(tablet.getByText(CARE_TEAM_MESSAGES.sealed)).toBeVisible();
    await tablet.getByRole('button', { name: 'Save the message' }).click();
    await expect(tablet.getByText('Your message for Anna Hill is saved.')).toBeVisible({
      timeout: 60_000,
    });
    const saves = sent.filter(
      (request) => new URL(request.url()).pathname === '/api/station/sealed-recordings',
    );
    expect(saves).toHaveLength(1);
    const takeId = new URL(saves[0]!.url()).searchParams.get('takeId')!;
    expect(sent.some((request) => request.url().includes('/api/station/recordings'))).toBe(false);

    // Finish: no video, no key, no password anywhere the tablet could keep them.
    await tablet.getByRole('button', { name: 'Finish' }).click();
    await expect(tablet.getByText('The station is clear.')).toBeVisible();
    await expectStationHoldsNothing(tablet, [MARGARET_PASSWORD, WRONG_PASSWORD, keys.passwordWrap]);
    // Neither password ever left the tablet, in any spelling of a request.
    for (const request of sent) {
      for (const password of [MARGARET_PASSWORD, WRONG_PASSWORD]) {
        expect(await requestCarries(request, password), request.url()).toBe(false);
      }
    }
    // Nor is the key still in the page: the next session asks for her password again.
    await openSessionForMargaret(tablet);
    await expect(
      tablet.getByRole('heading', { name: 'Please hand the tablet to Margaret Hill' }),
    ).toBeVisible();
    await tablet.getByRole('button', { name: 'Finish' }).click();
    await expect(tablet.getByText('The station is clear.')).toBeVisible();

    // The stored copy is sealed, and Anna, signed in with her card, watches it.
    const phone = await newPage(browser, server, STATION_VIEWPORTS.phone);
    await signInAsRecipient(phone, anna.email, annaCode);
    await expect(phone.getByRole('heading', { name: 'Messages for you' })).toBeVisible({
      timeout: 20_000,
    });
    expect(await storedCopyStart(phone, server.url, takeId)).toEqual({
      start: 'MMSV',
      holder: 'recipient',
    });
    const message = phone.getByRole('listitem').filter({ hasText: 'A message for Anna' });
    await message.getByRole('button', { name: /^Watch/ }).click();
    await expectCloudCopyPlays(message.getByTestId('video-player'));
  });
});
