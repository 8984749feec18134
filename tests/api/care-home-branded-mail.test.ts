import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import type { ReceivedMail } from '../setup/smtp';
import { createOnboardedUser, TEST_APP_URL, useTestApp } from '../setup/app';
import { makeCareHome, residentTablet } from './support/care-homes';
import { deliverMailTo } from './support/mail';

// Mail to a care-home resident's family carries the home's name and logo and says 'Powered by
// Memento'; everyone else's mail stays Memento's own, and so does a leaver's family's.

const t = useTestApp({ mail: true, admin: true });

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** Passes 7:1 against white and the page's cream. */
const ACCENT = '#1b48c8';

type Home = Awaited<ReturnType<typeof makeCareHome>>;

/** A home in its colour, with a logo, under a name that HTML would misread if not escaped. */
async function makeBrandedHome(name: string) {
  const home = await makeCareHome(t, name);
  const saved = await home.manager.device.request({
    method: 'PUT',
    url: '/api/care-home',
    payload: { name, accentHex: ACCENT },
  });
  expect(saved.statusCode).toBe(200);
  const logo = await home.manager.device.request({
    method: 'PUT',
    url: '/api/care-home/logo',
    payload: PNG,
    headers: { 'content-type': 'image/png' },
  });
  expect(logo.statusCode).toBe(200);
  return { ...home, logoPath: logo.json<{ logoUrl: string }>().logoUrl };
}

async function nextOfKinOf(residentId: number) {
  const [kin] = await t.db
    .select()
    .from(users)
    .where(and(eq(users.createdById, residentId), eq(users.category, 'next_of_kin')));
  return kin!;
}

const setStatus = (home: Home, linkId: number, status: string) =>
  home.manager.device.request({
    method: 'PUT',
    url: `/api/care-home/residents/${linkId}/status`,
    payload: { status },
  });

/** Memento's own mail: its name at the top, no home's name or logo before the greeting. */
function expectUnbranded(mail: ReceivedMail) {
  expect(mail.text).toMatch(/^Dear /);
  expect(mail.html).toMatch(/<p style="[^"]*">Memento<\/p><p style="[^"]*">Dear /);
  expect(mail.html).not.toContain('/api/care-homes/');
  expect(mail.html).not.toContain('<img');
}

describe('family mail in the care home’s branding', () => {
  it('a resident’s next of kin and family get mail with the home’s name, logo and colour, escaped', async () => {
    const name = 'Rose & Ivy <House>';
    const home = await makeBrandedHome(name);
    const tablet = await residentTablet(t, home.margaret.userId);
    const susan = await nextOfKinOf(home.margaret.userId);

    const reshared = await tablet.post(`/api/recipients/${susan.id}/reshare-code`);
    expect(reshared.statusCode, reshared.body).toBe(200);
    const mail = await deliverMailTo(t, susan.email, /^Your new emergency code for Margaret Hill/);
    // The plain text starts with the home's name, as it is.
    expect(mail.text).toMatch(/^Rose & Ivy <House>\nPowered by Memento\n\nDear Susan,/);
    // The HTML: the logo on the app's own address, its alt the home's name, all escaped.
    const logoUrl = `${TEST_APP_URL}${home.logoPath}`;
    expect(logoUrl).toMatch(/^http:\/\/localhost:5000\/api\/care-homes\/[a-z0-9-]+\/logo\?v=\d+$/);
    expect(mail.html).toContain(`<img src="${logoUrl}" alt="Rose &#38; Ivy &#60;House&#62;"`);
    expect(mail.html).toContain('>Rose &#38; Ivy &#60;House&#62;</p>');
    expect(mail.html).toContain('Powered by Memento');
    expect(mail.html).not.toContain('<House>');
    expect(mail.html).toContain(`color:${ACCENT}`);
    // The code is still there, large, as in every code mail.
    expect(mail.text).toMatch(/^ {4}[A-Z2-9]{4}(-[A-Z2-9]{4})+$/m);
    // The address in the mail answers with the picture, to anyone (a mail client sends no device).
    const served = await t.app.inject({ method: 'GET', url: logoUrl.slice(TEST_APP_URL.length) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');

    // Someone the resident adds is welcomed in the home's branding too.
    const added = await tablet.post('/api/recipients', {
      firstName: 'Tom',
      lastName: 'Hill',
      email: `tom.hill.${home.manager.user.username}@example.test`,
      category: 'family',
      relationship: 'Grandson',
    });
    expect(added.statusCode).toBe(201);
    const welcome = await deliverMailTo(
      t,
      `tom.hill.${home.manager.user.username}@example.test`,
      /^Margaret Hill is recording video messages for you/,
    );
    expect(welcome.text).toMatch(/^Rose & Ivy <House>\nPowered by Memento\n\nDear Tom,/);
    expect(welcome.html).toContain(`<img src="${logoUrl}"`);
    expect(welcome.html).toContain(`color:${ACCENT}`);
  });

  it('an ordinary account’s family gets Memento’s own mail, unchanged', async () => {
    const owner = await createOnboardedUser(t);
    const mail = await deliverMailTo(
      t,
      owner.nextOfKin.email,
      /has chosen you as their next of kin/,
    );
    expectUnbranded(mail);
    expect(mail.text).not.toContain('Powered by');
    expect(mail.html).not.toContain('Powered by');
  });

  it('a leaver’s family no longer gets the branding; a death notice comes in the home’s', async () => {
    const home = await makeBrandedHome('Birchfield Lodge');
    const tablet = await residentTablet(t, home.arthur.userId);
    const tom = await nextOfKinOf(home.arthur.userId);
    expect((await setStatus(home, home.arthur.linkId, 'left')).statusCode).toBe(200);
    // The notice that he left is Memento's own: from now on the home sees nothing of him.
    const left = await deliverMailTo(t, tom.email, /has left Birchfield Lodge$/);
    expectUnbranded(left);
    expect((await tablet.post(`/api/recipients/${tom.id}/reshare-code`)).statusCode).toBe(200);
    expectUnbranded(await deliverMailTo(t, tom.email, /^Your new emergency code for Arthur Jones/));

    const ivyTablet = await residentTablet(t, home.ivy.userId);
    const rose = await nextOfKinOf(home.ivy.userId);
    expect((await setStatus(home, home.ivy.linkId, 'died')).statusCode).toBe(200);
    const notice = await deliverMailTo(t, rose.email, /told us of Ivy Green’s death$/);
    expect(notice.text).toMatch(/^Birchfield Lodge\nPowered by Memento\n\nDear Rose,/);
    expect(notice.html).toContain(
      `<img src="${TEST_APP_URL}${home.logoPath}" alt="Birchfield Lodge"`,
    );
    // Its button, back to Memento, in the home's colour.
    expect(notice.html).toContain(`background:${ACCENT}`);
    // Whatever comes after (a code, the legacy) is Memento's own: the home has no part in it.
    expect((await ivyTablet.post(`/api/recipients/${rose.id}/reshare-code`)).statusCode).toBe(200);
    expectUnbranded(await deliverMailTo(t, rose.email, /^Your new emergency code for Ivy Green/));
  });

  it('once the home’s plan has lapsed its families get Memento’s own mail and page', async () => {
    const home = await makeBrandedHome('Elm Court');
    const page = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/care-homes/${home.home.slug}` })).json<{
        name: string;
        accentHex: string | null;
        logoUrl: string | null;
      }>();
    expect(await page()).toMatchObject({ name: 'Elm Court', accentHex: ACCENT });
    expect((await page()).logoUrl).toBe(home.logoPath);

    await t.db
      .update(users)
      .set({ subscriptionTier: 'free' })
      .where(eq(users.id, home.manager.user.id));
    // The families still find the home's sign-in by its name, without its styling.
    expect(await page()).toMatchObject({ name: 'Elm Court', accentHex: null, logoUrl: null });
    const tablet = await residentTablet(t, home.arthur.userId);
    const tom = await nextOfKinOf(home.arthur.userId);
    expect((await tablet.post(`/api/recipients/${tom.id}/reshare-code`)).statusCode).toBe(200);
    expectUnbranded(await deliverMailTo(t, tom.email, /^Your new emergency code for Arthur Jones/));
  });
});
