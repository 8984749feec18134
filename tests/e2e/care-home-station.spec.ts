import type { Browser, Page } from '@playwright/test';
import type { TResidentProgress } from '../../src/shared/schemas/care-homes';
import { expect, registerUser, reloadAfterRestart, test, pageOn } from './fixtures';
import { CARE_HOME_LOGO, drawCareHomeLogo } from './support/care-home-logo';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { waitForMail } from './support/outbox';
import { callApi } from './support/page-api';
import { startOwnServer, type OwnServer } from './support/own-server';
import { signInAddingThisDevice } from './support/devices';
import {
  attachScreenshot,
  carerJoinsWithPin,
  expectStationHoldsNothing,
  scanAtBothSizes,
  STATION_VIEWPORTS,
} from './support/stations';

// A care home's recording station: the manager makes the home's tablet a station, a carer signs
// in there with their PIN, a resident records and saves for their daughter, and after "Finish"
// the tablet's browser holds no video and no session. Every step is in the home's branding, and
// so is the mail its residents' families get.

const VIEWPORTS = STATION_VIEWPORTS;

const RESIDENTS = [
  'first_name,last_name,room,nok_first_name,nok_last_name,nok_email,nok_relationship,consent_basis,attorney_name',
  'Margaret,Hill,12,Susan,Hill,susan.hill@example.test,Daughter,resident,',
  'Arthur,Jones,14,Peter,Jones,peter.jones@example.test,Son,,',
].join('\n');

/** The home's logo and name, and who holds the messages, at the top of the screen. */
async function expectHomeBranding(page: Page) {
  const logo = page.getByRole('img', { name: 'Rosewood House logo' });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(
    CARE_HOME_LOGO.width,
  );
  await expect(page.getByText('Rosewood House', { exact: true })).toBeVisible();
  await expect(page.getByText('Powered by Memento', { exact: true })).toBeVisible();
}

async function newPage(browser: Browser, server: OwnServer) {
  return pageOn(browser, server, { viewport: VIEWPORTS.laptop });
}

test.describe('a care home’s recording station', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a carer signs in with a PIN, a resident records and saves, and Finish leaves nothing', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    // The manager sets up the home, invites a carer and imports two residents (one without a
    // consent basis yet).
    const office = await newPage(browser, server);
    const manager = await registerUser(office, { firstName: 'Joan' });
    await server.setTier(manager.username, 'professional');
    await reloadAfterRestart(office);
    await office.getByRole('link', { name: 'Your care home' }).click();
    await office.getByLabel('Care home name').fill('Rosewood House');
    await office.getByLabel('Accent colour (optional)').fill('#1b48c8');
    await office.getByRole('button', { name: 'Set up care home' }).click();
    await expect(office.getByRole('heading', { level: 2, name: 'Rosewood House' })).toBeVisible();
    await office.getByLabel('Choose a logo (PNG or JPEG, up to 256 KB)').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await drawCareHomeLogo(office, 'RH'),
    });
    await expect(office.getByRole('img', { name: 'Rosewood House logo' })).toBeVisible();
    await office.getByLabel('First name').fill('Jane');
    await office.getByLabel('Last name').fill('Doe');
    await office.getByLabel('Email').fill('jane.doe@example.test');
    await office.getByRole('button', { name: 'Send invitation' }).click();
    await expect(office.getByText('jane.doe@example.test · Invited')).toBeVisible();
    await office.getByLabel('Residents file (CSV)').setInputFiles({
      name: 'residents.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(RESIDENTS),
    });
    await office.getByRole('button', { name: 'Import 2 residents' }).click();
    await expect(
      office.getByText('2 imported, 0 already in your home, 0 to correct.'),
    ).toBeVisible();

    // The carer joins with their own account and sets their PIN.
    await carerJoinsWithPin(await newPage(browser, server), server, {
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.test',
      homeName: 'Rosewood House',
      pin: '4821',
    });

    // The manager, on the home's tablet, makes it the station.
    const tablet = await newPage(browser, server);
    await signInAddingThisDevice(tablet, server, manager);
    await tablet.goto('/care-home');
    await tablet.getByLabel("The tablet's name").fill('Lounge tablet');
    await tablet.getByRole('button', { name: 'Make this tablet a recording station' }).click();
    await scanAtBothSizes(tablet, 'making a station');
    await tablet.getByRole('button', { name: 'Yes, make it a station' }).click();

    // The carer signs in with their PIN; only Margaret is offered.
    await expect(tablet.getByRole('heading', { name: 'Who is helping today?' })).toBeVisible();
    await expectHomeBranding(tablet);
    // In the home's own colour.
    await expect(tablet.getByRole('button', { name: 'Jane Doe' })).toHaveCSS(
      'color',
      'rgb(27, 72, 200)',
    );
    await scanAtBothSizes(tablet, 'station sign-in');
    await tablet.getByRole('button', { name: 'Jane Doe' }).click();
    await tablet.getByLabel('Jane Doe, please type your PIN').fill('4821');
    await tablet.getByRole('button', { name: 'Sign in' }).click();
    await expect(tablet.getByRole('heading', { name: 'Who is recording?' })).toBeVisible();
    await expect(tablet.getByRole('button', { name: 'Arthur Jones' })).toHaveCount(0);
    await scanAtBothSizes(tablet, 'choosing a resident');
    await tablet.getByRole('button', { name: 'Margaret Hill' }).click();

    // Margaret records, watches it back and saves it for Susan.
    await expect(
      tablet.getByRole('heading', { name: 'Recording for Margaret Hill' }),
    ).toBeVisible();
    await expectHomeBranding(tablet);
    await scanAtBothSizes(tablet, 'recording for a resident');
    await tablet.setViewportSize(VIEWPORTS.phone);
    await attachScreenshot(tablet, 'station-branded-phone.png');
    await tablet.setViewportSize(VIEWPORTS.laptop);
    await tablet.getByRole('button', { name: 'Start recording' }).click();
    await expect(tablet.getByRole('button', { name: 'Stop recording' })).toBeVisible();
    await tablet.waitForTimeout(2500);
    await tablet.getByRole('button', { name: 'Stop recording' }).click();
    await expect(tablet.getByRole('heading', { name: 'Watch it back' })).toBeVisible();
    await tablet.getByRole('radio', { name: 'Susan Hill' }).check();
    await scanAtBothSizes(tablet, 'reviewing a take');
    await tablet.getByRole('button', { name: 'Save the message' }).click();
    await expect(tablet.getByText('Your message for Susan Hill is saved.')).toBeVisible({
      timeout: 30_000,
    });

    // Finish: nothing of Margaret's is left in the tablet's browser, no key material either.
    await tablet.getByRole('button', { name: 'Finish' }).click();
    await expect(tablet.getByText('The station is clear.')).toBeVisible();
    await expectStationHoldsNothing(tablet);
    // And the tablet's server session is gone too: back at the staff list.
    await tablet.reload();
    await expect(tablet.getByRole('heading', { name: 'Who is helping today?' })).toBeVisible();

    // The home's residents' families get its mail in its branding: here Arthur's son hears of
    // his death from the home, with its logo (on the app's own address) and name at the top.
    const residents = await callApi<TResidentProgress[]>(office, 'GET', '/api/care-home/residents');
    const arthur = residents.find((resident) => resident.firstName === 'Arthur')!;
    await callApi(office, 'PUT', `/api/care-home/residents/${arthur.id}/status`, {
      status: 'died',
    });
    const notice = await waitForMail(
      'peter.jones@example.test',
      /told us of Arthur Jones’s death/,
      {
        dataDir: server.dataDir,
      },
    );
    expect(notice.text).toMatch(/^Rosewood House\nPowered by Memento\n\nDear Peter,/);
    const mail = await newPage(browser, server);
    await mail.setContent(notice.html, { waitUntil: 'load' });
    const mailLogo = mail.getByRole('img', { name: 'Rosewood House' });
    await expect(mailLogo).toHaveAttribute(
      'src',
      new RegExp(`^${server.url}/api/care-homes/rosewood-house/logo\\?v=\\d+$`),
    );
    expect(await mailLogo.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(
      CARE_HOME_LOGO.width,
    );
    await expect(mail.getByText('Powered by Memento', { exact: true })).toBeVisible();
    await scanAtBothSizes(mail, 'a family’s mail from the home');
    await mail.setViewportSize(VIEWPORTS.phone);
    await attachScreenshot(mail, 'family-mail-branded-phone.png');
  });
});
