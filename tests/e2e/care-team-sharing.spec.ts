import type { Browser, Locator, Page } from '@playwright/test';
import type { TCareTeamMine } from '../../src/shared/schemas/care-team';
import { expect, registerUser, reloadAfterRestart, test, toastMessage, pageOn } from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { waitForMail } from './support/outbox';
import { callApi } from './support/page-api';
import { startOwnServer, type OwnServer } from './support/own-server';
import { recordFor } from './support/recording';

// "Share with the care team": a resident of a care home records a message for her daughter on
// her own tablet and ticks 'Also share with the care team'; once it is in the cloud, a carer of
// the home watches it from the care-home page; the resident then stops sharing it, and it is gone
// from the carer's list.

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;

/**
 * Axe at phone and laptop size, with a picture of each for the report: the whole page, and the
 * part this test is about.
 */
async function scanAndPicture(page: Page, label: string, part: Locator) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, test.info(), `${label} (${name})`);
    const file = label.replace(/\W+/g, '-');
    const whole = test.info().outputPath(`${file}-${name}.png`);
    const detail = test.info().outputPath(`${file}-${name}-part.png`);
    await page.screenshot({ path: whole, fullPage: true });
    await part.screenshot({ path: detail });
    await test.info().attach(`${label} at ${name} size`, { path: whole, contentType: 'image/png' });
    await test.info().attach(`${label} at ${name} size, close up`, {
      path: detail,
      contentType: 'image/png',
    });
  }
  await page.setViewportSize(VIEWPORTS.laptop);
}

async function newPage(browser: Browser, server: OwnServer) {
  return pageOn(browser, server, { viewport: VIEWPORTS.laptop });
}

test.describe('sharing a message with the care team', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a resident shares a message, a carer watches it, and the resident takes it back', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const office = await newPage(browser, server);
    const manager = await registerUser(office, { firstName: 'Joan', lastName: 'Baker' });
    const tablet = await newPage(browser, server);
    const resident = await registerUser(tablet, { firstName: 'Margaret', lastName: 'Hill' });
    const carerPage = await newPage(browser, server);
    await registerUser(carerPage, {
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.test',
    });

    // Set-up, straight in the database: the manager on Professional with Rosewood House set up,
    // and Margaret (on a plan that keeps her messages in the cloud) living there.
    await server.writeWhileStopped(
      `with manager as (
         update users set subscription_tier = 'professional' where username = $1 returning id
       ), resident as (
         update users set subscription_tier = 'premium' where username = $2 returning id
       ), home as (
         insert into care_homes (manager_id, name, slug)
         select id, 'Rosewood House', 'rosewood-house' from manager returning id
       )
       insert into care_home_residents
         (care_home_id, user_id, room, import_key, consent_basis, consent_recorded_at)
       select home.id, resident.id, '12', 'margaret|hill|12', 'resident', now()
       from home, resident`,
      [manager.username, resident.username],
    );
    for (const page of [office, tablet, carerPage]) await reloadAfterRestart(page);

    // The manager invites Jane, who joins with her own account.
    await callApi(office, 'POST', '/api/care-home/staff', {
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.test',
    });
    const invitation = await waitForMail('jane.doe@example.test', /invites you/, {
      dataDir: server.dataDir,
    });
    const link = /https?:\/\/\S+\/care-home\/join#[\w-]+/.exec(invitation.text)![0];
    await carerPage.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await carerPage.getByRole('button', { name: 'Accept the invitation' }).click();
    await expect(carerPage.getByText('You are on Rosewood House’s staff')).toBeVisible();

    // Margaret records for her daughter and ticks the care team too.
    await expect(tablet.getByRole('heading', { name: 'Rosewood House' })).toBeVisible();
    await expect(
      tablet.getByText('You share no messages with the care team at Rosewood House.', {
        exact: false,
      }),
    ).toBeVisible();
    await tablet.getByRole('link', { name: 'Record New Video Message' }).click();
    await tablet.getByLabel('Message title').fill('For the night nurses');
    await tablet.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });
    const careTeam = tablet.getByRole('checkbox', {
      name: 'Also share with the care team at Rosewood House',
    });
    await expect(careTeam).not.toBeChecked();
    await careTeam.click();
    await expect(careTeam).toBeChecked();
    await scanAndPicture(
      tablet,
      'choosing the care team',
      tablet.getByRole('region', { name: '1. About your message' }),
    );
    await recordFor(tablet, 2);
    await tablet.getByRole('button', { name: 'Save Message' }).click();
    await expect(toastMessage(tablet, 'Video saved')).toContainText(
      'The care team at Rosewood House can watch it once it is in the cloud.',
    );
    await expect(tablet.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

    // Once the copy is in the cloud, her home's card says the care team can watch it.
    await expect
      .poll(
        async () =>
          (await callApi<TCareTeamMine>(tablet, 'GET', '/api/care-home/care-team/mine')).shares.map(
            (share) => share.state,
          ),
        { timeout: 60_000 },
      )
      .toEqual(['watchable']);
    await tablet.reload();
    const shares = tablet.getByRole('list', { name: 'Messages you share with the care team' });
    const shared = shares.getByRole('listitem').filter({ hasText: 'For the night nurses' });
    await expect(shared).toContainText('The care team can watch it.');
    await scanAndPicture(
      tablet,
      'what the resident shares',
      tablet.getByRole('region', { name: 'Rosewood House' }),
    );

    // Jane, on her own phone, finds it on the care-home page and watches it there.
    await carerPage.goto('/care-home');
    const list = carerPage.getByRole('list', { name: 'Messages shared with the care team' });
    await expect(
      list.getByRole('listitem').filter({ hasText: 'For the night nurses' }),
    ).toContainText(/From Margaret Hill · /);
    await scanAndPicture(
      carerPage,
      'the care team’s list',
      carerPage.getByRole('region', { name: 'Shared with the care team' }),
    );
    await list.getByRole('button', { name: 'Watch For the night nurses' }).click();
    const video = list.locator('video');
    await expect(video).toBeVisible();
    await expect
      .poll(() => video.evaluate((element) => (element as HTMLVideoElement).readyState), {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(1);
    await scanAndPicture(
      carerPage,
      'a carer watching',
      carerPage.getByRole('region', { name: 'Shared with the care team' }),
    );

    // Margaret's own log says Jane watched it.
    await tablet.goto('/audit-logs');
    await expect(tablet.getByText('Care team watched a shared message').first()).toBeVisible();

    // Margaret stops sharing it: gone from Jane's list.
    await tablet.goto('/');
    await tablet
      .getByRole('list', { name: 'Messages you share with the care team' })
      .getByRole('button', { name: 'Stop sharing For the night nurses' })
      .click();
    await expect(
      tablet.getByText('You share no messages with the care team at Rosewood House.', {
        exact: false,
      }),
    ).toBeVisible();
    await carerPage.reload();
    await expect(
      carerPage.getByText('No resident has shared a message with the care team yet.'),
    ).toBeVisible();

    // She changes her mind and shares it again from the message itself, in View Videos.
    await tablet.goto('/recipients');
    await tablet.getByRole('button', { name: /^View Videos for / }).click();
    const videos = tablet.getByRole('dialog');
    await expect(videos.getByText('Not shared with the care team at Rosewood House')).toBeVisible();
    await videos
      .getByRole('button', { name: 'Share with the care team: For the night nurses' })
      .click();
    await expect(
      videos.getByText('Shared with the care team at Rosewood House', { exact: true }),
    ).toBeVisible();
    await scanAndPicture(tablet, 'a message shared from View Videos', videos);
    await carerPage.reload();
    await expect(
      carerPage
        .getByRole('list', { name: 'Messages shared with the care team' })
        .getByRole('listitem')
        .filter({ hasText: 'For the night nurses' }),
    ).toBeVisible();
  });
});
