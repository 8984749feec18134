import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { CARE_HOME_MESSAGES } from '../../src/shared/schemas/care-homes';
import { expect, registerUser, reloadAfterRestart, test, pageOn } from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { waitForMail } from './support/outbox';
import { startOwnServer, type OwnServer } from './support/own-server';

// A care home's manager on Professional sets the home up, invites a carer and imports residents
// from a file, checked first, on a server of the test's own (the plan is written to its database).

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const HEADER =
  'first_name,last_name,room,nok_first_name,nok_last_name,nok_email,nok_relationship,consent_basis,attorney_name';
const RESIDENTS = [
  HEADER,
  'Margaret,Hill,12,Susan,Hill,susan.hill@example.test,Daughter,resident,',
  'Arthur,Jones,14B,Peter,Jones,peter.jones@example.test,Son,attorney,Peter Jones',
  'Edith,Brown,3,Ann,Brown,not-an-email,Niece,,',
].join('\n');

const csvFile = (name: string, text: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text),
});

async function scanAtBothSizes(page: Page, label: string) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, test.info(), `${label} (${name})`);
  }
  await page.setViewportSize(VIEWPORTS.phone);
}

async function newPage(browser: Browser, server: OwnServer) {
  return pageOn(browser, server, { viewport: VIEWPORTS.phone });
}

test.describe('a care home on Professional', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    // Another address is the installation's admin, so the manager is an ordinary account.
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the manager sets the home up, invites a carer and imports residents', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const page = await newPage(browser, server);
    const manager = await registerUser(page, { firstName: 'Joan' });
    await server.setTier(manager.username, 'professional');
    await reloadAfterRestart(page);
    await page.getByRole('link', { name: 'Your care home' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Your care home' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Set up your care home' })).toBeVisible();
    await scanAtBothSizes(page, 'care home set-up');

    await page.getByLabel('Care home name').fill('Rosewood House');
    await page.getByLabel('Accent colour (optional)').fill('#1d4ed8');
    await expect(
      page.getByText('This colour is too light to read (6.3:1; it needs 7:1).'),
    ).toBeVisible();
    await scanAtBothSizes(page, 'a colour too light');
    await page.getByRole('button', { name: 'Use the darker shade #1b48c8' }).click();
    await expect(page.getByLabel('Accent colour (optional)')).toHaveValue('#1b48c8');
    await page.getByRole('button', { name: 'Set up care home' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Rosewood House' })).toBeVisible();

    await page
      .getByLabel('Choose a logo (PNG or JPEG, up to 256 KB)')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    const logo = page.getByRole('img', { name: 'Rosewood House logo' });
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(1);

    await page.getByLabel('First name').fill('Jane');
    await page.getByLabel('Last name').fill('Doe');
    await page.getByLabel('Email').fill('jane.doe@example.test');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText('jane.doe@example.test · Invited')).toBeVisible();

    const fileField = page.getByLabel('Residents file (CSV)');
    await fileField.setInputFiles(csvFile('residents.csv', RESIDENTS));
    await expect(
      page.getByText('2 ready to import, 0 already in your home, 1 to correct.'),
    ).toBeVisible();
    await expect(page.getByText('Next of kin’s email is not a valid email address.')).toBeVisible();
    await scanAtBothSizes(page, 'an import preview');
    await page.getByRole('button', { name: 'Import 2 residents' }).click();
    await expect(page.getByText('2 imported, 0 already in your home, 1 to correct.')).toBeVisible();

    const progress = page.getByRole('table', { name: 'Each resident’s progress' });
    const margaret = progress.getByRole('row', { name: /Margaret Hill/ });
    await expect(margaret).toContainText('s•••••••••@example.test');
    await expect(margaret).toContainText('0 of 1');
    await expect(progress).not.toContainText('susan.hill@example.test');
    await expect(margaret).toContainText('Offered');
    await scanAtBothSizes(page, 'the progress table');

    // The same table as a spreadsheet file, in the table's words, with the email still masked.
    const spreadsheetLink = page.getByRole('link', { name: 'Download as a spreadsheet (CSV)' });
    expect((await spreadsheetLink.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    const downloading = page.waitForEvent('download');
    await spreadsheetLink.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      /^rosewood-house(-\d+)?-progress-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const sheet = await readFile(await download.path(), 'utf8');
    expect(sheet.startsWith('\uFEFF')).toBe(true);
    expect(sheet.slice(1).split('\r\n')).toContain(
      'Margaret Hill,The resident agreed,12,Susan Hill,s•••••••••@example.test,0 of 1,0,0,Not yet,No,Offered,Living here',
    );
    expect(sheet).not.toContain('susan.hill@example.test');

    // Anyone may pause: the stations stop offering her until she is turned back on.
    await margaret.getByRole('button', { name: 'Pause Memento for Margaret Hill' }).click();
    const turnBackOn = margaret.getByRole('button', {
      name: 'Turn Memento back on for Margaret Hill',
    });
    await expect(turnBackOn).toBeVisible();
    await expect(margaret).toContainText('Paused');
    await turnBackOn.click();
    await expect(margaret).toContainText('Offered');

    // The same file again adds nobody.
    await fileField.setInputFiles(csvFile('residents-again.csv', RESIDENTS));
    await expect(
      page.getByText('0 ready to import, 2 already in your home, 1 to correct.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /^Import \d/ })).toHaveCount(0);

    // Files over the limits are refused in words: too large here, too many lines by the server.
    await fileField.setInputFiles(csvFile('big.csv', `${HEADER}\n${'x'.repeat(300 * 1024)}`));
    await expect(page.getByText(CARE_HOME_MESSAGES.importTooLarge)).toBeVisible();
    const many = Array.from(
      { length: 201 },
      (_, i) => `Resident,Number${i},${i},Kin,Number${i},kin${i}@example.test,,resident,`,
    );
    await fileField.setInputFiles(csvFile('many.csv', [HEADER, ...many].join('\n')));
    await expect(page.getByText(CARE_HOME_MESSAGES.importTooManyRows)).toBeVisible();
    await expect(progress.getByRole('row')).toHaveCount(3);

    // A letter for each family, with a code printed and never emailed.
    await page
      .getByRole('button', { name: 'Make letters for families who have not joined' })
      .click();
    await expect(page.getByText('2 letters are ready to print.')).toBeVisible({ timeout: 20_000 });
    const letter = page.getByRole('article', {
      name: 'For Susan Hill, family of Margaret Hill (room 12)',
    });
    await expect(letter).toContainText('s•••••••••@example.test');
    await expect(letter.getByRole('img', { name: /^QR code/ })).toBeVisible();
    await expect(page.getByTestId('letters')).not.toContainText('susan.hill@example.test');
    await scanAtBothSizes(page, 'invitation letters');
    const code = ((await letter.getByTestId('letter-code').textContent()) ?? '').trim();
    const address = ((await letter.locator('strong').first().textContent()) ?? '').trim();
    expect(address).toMatch(/\/r\/[a-z0-9-]+$/);

    // Susan scans it: the home's page, then the sign-in with the code filled in.
    const susan = await newPage(browser, server);
    await susan.goto(`${address}#code=${code.replace(/-/g, '')}`);
    await susan.getByRole('link', { name: 'Sign in to watch' }).click();
    await expect(susan.getByLabel('Access code', { exact: true })).toHaveValue(/\S/);
    await susan.getByLabel('Your email address').fill('susan.hill@example.test');
    await susan.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(susan.getByRole('heading', { name: /Welcome, Susan/ })).toBeVisible({
      timeout: 20_000,
    });
    await page.reload();
    await expect(
      page.getByRole('table', { name: 'Each resident’s progress' }).getByRole('row', {
        name: /Margaret Hill/,
      }),
    ).toContainText('1 of 1');

    // Arthur moves out and comes back; Margaret dies: her next of kin is told they may ask.
    const rows = page.getByRole('table', { name: 'Each resident’s progress' });
    const arthur = rows.getByRole('row', { name: /Arthur Jones/ });
    await arthur.getByRole('button', { name: 'Arthur Jones has left' }).click();
    await expect(arthur).toContainText(/Left on \d+ \w+ \d{4}/);
    await expect(arthur).toContainText('Not offered');
    await arthur.getByRole('button', { name: 'Arthur Jones is back' }).click();
    await expect(arthur).toContainText('Living here');
    const margaretRow = rows.getByRole('row', { name: /Margaret Hill/ });
    await margaretRow.getByRole('button', { name: 'Record Margaret Hill’s death' }).click();
    const confirm = margaretRow.getByRole('group', { name: 'Record Margaret Hill’s death' });
    await expect(confirm).toContainText('Nothing is released by this');
    await scanAtBothSizes(page, 'recording a death');
    await confirm.getByRole('button', { name: 'Yes, record it' }).click();
    await expect(margaretRow).toContainText(/Died on \d+ \w+ \d{4}/);
    const notice = await waitForMail(
      'susan.hill@example.test',
      /told us of Margaret Hill’s death/,
      {
        dataDir: server.dataDir,
      },
    );
    expect(notice.text).toContain('Ask to release Margaret');
  });

  test('the manager sorts the progress table by a column, and the spreadsheet keeps its own order', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await newPage(browser, server);
    const manager = await registerUser(page, { firstName: 'Ruth' });
    await server.setTier(manager.username, 'professional');
    await reloadAfterRestart(page);
    await page.getByRole('link', { name: 'Your care home' }).click();
    await page.getByLabel('Care home name').fill('Alder Court');
    await page.getByRole('button', { name: 'Set up care home' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Alder Court' })).toBeVisible();
    // Zoë Young has no consent recorded, so she needs help.
    const residents = [
      HEADER,
      'Margaret,Hill,12,Susan,Hill,susan.sort@example.test,Daughter,resident,',
      'Ann,de Souza,3,Kit,de Souza,kit.sort@example.test,Son,resident,',
      'Arthur,Jones,14B,Tom,Jones,tom.sort@example.test,Son,resident,',
      'Zoë,Young,2A,Rose,Young,rose.sort@example.test,Niece,,',
    ].join('\n');
    await page.getByLabel('Residents file (CSV)').setInputFiles(csvFile('sort.csv', residents));
    await page.getByRole('button', { name: 'Import 4 residents' }).click();
    await expect(page.getByText('4 imported, 0 already in your home, 0 to correct.')).toBeVisible();

    const progress = page.getByRole('table', { name: 'Each resident’s progress' });
    const names = progress.getByRole('rowheader');
    const heading = (name: string) => progress.getByRole('columnheader', { name });
    const sortButton = (name: string) => heading(name).getByRole('button', { name });
    const byName = [/^Ann de Souza/, /^Margaret Hill/, /^Arthur Jones/, /^Zoë Young/];

    // By last name at first, 'de Souza' among the Ds.
    await expect(names).toHaveText(byName);
    await expect(heading('Resident')).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByText('Sorted by Resident: last name, A to Z.')).toBeVisible();

    // Each heading is a button big enough for a finger, in 18 px text.
    const room = sortButton('Room');
    const box = (await room.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(await room.evaluate((button) => getComputedStyle(button).fontSize)).toBe('18px');

    // Rooms in their numbers' order, then reversed; the order is said politely.
    await room.click();
    await expect(names).toHaveText([
      /^Zoë Young/,
      /^Ann de Souza/,
      /^Margaret Hill/,
      /^Arthur Jones/,
    ]);
    await expect(heading('Room')).toHaveAttribute('aria-sort', 'ascending');
    await expect(heading('Resident')).not.toHaveAttribute('aria-sort');
    const said = page.getByText('Sorted by Room: lowest room first.');
    await expect(said).toHaveAttribute('aria-live', 'polite');
    await room.click();
    await expect(names).toHaveText([
      /^Arthur Jones/,
      /^Margaret Hill/,
      /^Ann de Souza/,
      /^Zoë Young/,
    ]);
    await expect(heading('Room')).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByText('Sorted by Room: highest room first.')).toBeVisible();

    // Those who need help come first.
    await sortButton('Needs help').click();
    await expect(names).toHaveText([
      /^Zoë Young/,
      /^Ann de Souza/,
      /^Margaret Hill/,
      /^Arthur Jones/,
    ]);
    await expect(heading('Needs help')).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByText('Sorted by Needs help: those who need help first.')).toBeVisible();
    await scanAtBothSizes(page, 'the progress table sorted');
    // For a look at both sizes: the table from its first column, as it opens.
    await page.getByRole('region', { name: "Residents' progress" }).evaluate((table) => {
      table.scrollLeft = 0;
    });
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      // The section's top just below the page's sticky header.
      await page
        .getByRole('heading', { name: 'How residents are getting on' })
        .evaluate((heading) =>
          window.scrollTo(0, heading.getBoundingClientRect().top + scrollY - 100),
        );
      await page.screenshot({ path: test.info().outputPath(`progress-table-${name}.png`) });
    }
    await page.setViewportSize(VIEWPORTS.phone);

    // The spreadsheet stays in the table's own order, by last name, however the screen is sorted.
    await expect(page.getByText('The file lists residents by last name.')).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download as a spreadsheet (CSV)' }).click();
    const sheet = await readFile(await (await downloading).path(), 'utf8');
    expect(
      sheet
        .slice(1)
        .split('\r\n')
        .slice(1, 5)
        .map((line) => line.split(',')[0]),
    ).toEqual(['Ann de Souza', 'Margaret Hill', 'Arthur Jones', 'Zoë Young']);
  });
});
