import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, careHomeResidents, mailQueue, users, videos } from '../../src/server/db/schema';
import { CARE_HOME_MESSAGES } from '../../src/shared/schemas/care-homes';
import { createPrimaryUser, TestClock, TestDevice, useTestApp } from '../setup/app';

// A care home on Professional: its manager sets it up, invites staff and imports residents, and
// every answer the home gets holds counts, dates and masked emails, never a message.

const clock = new TestClock();
const t = useTestApp({ mail: true, admin: true, clock });

/** A 1×1 PNG, and the same header claiming 2000×2000 pixels. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const HUGE_PNG = Buffer.from(PNG);
HUGE_PNG.writeUInt32BE(2000, 16);
HUGE_PNG.writeUInt32BE(2000, 20);

const HEADER =
  'first_name,last_name,room,nok_first_name,nok_last_name,nok_email,nok_relationship,consent_basis,attorney_name';

type Manager = Awaited<ReturnType<typeof createPrimaryUser>>;

async function makeManager(tier: 'professional' | 'premium' = 'professional'): Promise<Manager> {
  const manager = await createPrimaryUser(t);
  await t.db.update(users).set({ subscriptionTier: tier }).where(eq(users.id, manager.user.id));
  return manager;
}

async function setUpHome(manager: Manager, name: string) {
  const res = await manager.device.request({
    method: 'PUT',
    url: '/api/care-home',
    payload: { name, accentHex: '#0f5e5a' },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: number; slug: string; logoUrl: string | null }>();
}

function importCsv(manager: Manager, csv: string, dryRun: boolean) {
  return manager.device.post('/api/care-home/residents/import', { csv, dryRun });
}

const countUsers = async () =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;

describe('setting up a care home', () => {
  it('is for Professional accounts: others are told to choose the plan', async () => {
    const owner = await makeManager('premium');
    const answer = await owner.device.get('/api/care-home');
    expect(answer.json()).toEqual({ home: null, hasPlan: false });
    const refused = await owner.device.request({
      method: 'PUT',
      url: '/api/care-home',
      payload: { name: 'Rosewood House' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: CARE_HOME_MESSAGES.planRequired });
  });

  it('refuses an accent colour below 7:1 and names a darker shade that passes', async () => {
    const manager = await makeManager();
    const refused = await manager.device.request({
      method: 'PUT',
      url: '/api/care-home',
      payload: { name: 'Rosewood House', accentHex: '#1D4ED8' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(
      "This colour is too light to read on Memento's screens (6.3:1; it needs 7:1). Try #1b48c8, a darker shade of it.",
    );
    const saved = await manager.device.request({
      method: 'PUT',
      url: '/api/care-home',
      payload: { name: 'Rosewood House', accentHex: '#1b48c8' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Rosewood House', accentHex: '#1b48c8' });
    const renamed = await manager.device.request({
      method: 'PUT',
      url: '/api/care-home',
      payload: { name: 'Rosewood House, Leeds', accentHex: null },
    });
    // The address stays as first made, so printed letters keep working.
    expect(renamed.json()).toMatchObject({
      name: 'Rosewood House, Leeds',
      slug: saved.json<{ slug: string }>().slug,
      accentHex: null,
    });
    const logged = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.userId, manager.user.id), eq(auditLogs.eventType, 'care_home_saved')),
      );
    expect(logged).toHaveLength(2);
  });

  it('keeps a PNG logo checked by its bytes and serves it only as that picture', async () => {
    const manager = await makeManager();
    const home = await setUpHome(manager, 'Logo Lodge');
    const put = (body: Buffer, type: string) =>
      manager.device.request({
        method: 'PUT',
        url: '/api/care-home/logo',
        payload: body,
        headers: { 'content-type': type },
      });

    const svg = await put(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'image/svg+xml',
    );
    expect(svg.statusCode).toBe(415);
    const disguised = await put(Buffer.from('<html><script>alert(1)</script></html>'), 'image/png');
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json()).toMatchObject({ message: CARE_HOME_MESSAGES.logoType });
    const wrongType = await put(PNG, 'image/jpeg');
    expect(wrongType.statusCode).toBe(415);
    const large = await put(Buffer.concat([PNG, Buffer.alloc(300 * 1024)]), 'image/png');
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({ message: CARE_HOME_MESSAGES.logoTooLarge });
    const tooManyPixels = await put(HUGE_PNG, 'image/png');
    expect(tooManyPixels.statusCode).toBe(400);
    expect(tooManyPixels.json()).toMatchObject({ message: CARE_HOME_MESSAGES.logoTooManyPixels });

    const saved = await put(PNG, 'image/png');
    expect(saved.statusCode).toBe(200);
    const logoUrl = saved.json<{ logoUrl: string }>().logoUrl;
    expect(logoUrl).toMatch(new RegExp(`^/api/care-homes/${home.slug}/logo\\?v=\\d+$`));

    // An <img> in a family's email sends no device id.
    const served = await t.app.inject({ method: 'GET', url: logoUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const removed = await manager.device.request({ method: 'DELETE', url: '/api/care-home/logo' });
    expect(removed.json()).toMatchObject({ logoUrl: null });
    expect((await t.app.inject({ method: 'GET', url: logoUrl })).statusCode).toBe(404);
  });
});

describe('staff', () => {
  it('are invited by email, accept once with their own account, and can be disabled', async () => {
    const manager = await makeManager();
    await setUpHome(manager, 'Birch Court');
    const email = `carer.${manager.user.username}@example.test`;
    const invited = await manager.device.post('/api/care-home/staff', {
      firstName: 'Jane',
      lastName: 'Doe',
      email,
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ state: 'invited', email });
    const mail = await t.smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe('Birch Court invites you to help residents with Memento');
    const token = /\/care-home\/join#([\w-]+)/.exec(mail.text)![1]!;

    const carer = await createPrimaryUser(t, { email });
    const accepted = await carer.device.post('/api/care-home/staff/accept', { token });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ homeName: 'Birch Court' });
    const again = await carer.device.post('/api/care-home/staff/accept', { token });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: CARE_HOME_MESSAGES.inviteNotValid });

    const staff = await manager.device.get('/api/care-home/staff');
    const [member] = staff.json<{ id: number; state: string }[]>();
    expect(member).toMatchObject({ state: 'active', firstName: 'Jane' });

    // Another home's manager cannot touch this home's staff.
    const other = await makeManager();
    await setUpHome(other, 'Elm House');
    const foreign = await other.device.post(`/api/care-home/staff/${member!.id}/disable`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ message: CARE_HOME_MESSAGES.notFound });

    const disabled = await manager.device.post(`/api/care-home/staff/${member!.id}/disable`);
    expect(disabled.json()).toMatchObject({ state: 'disabled' });
    const carerLog = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.userId, carer.user.id), eq(auditLogs.eventType, 'care_home_staff_joined')),
      );
    expect(carerLog).toHaveLength(1);
  });

  it('an invitation stops working after 7 days', async () => {
    const manager = await makeManager();
    await setUpHome(manager, 'Ash Grove');
    const email = `late.${manager.user.username}@example.test`;
    await manager.device.post('/api/care-home/staff', {
      firstName: 'Tom',
      lastName: 'Late',
      email,
    });
    const mail = await t.smtp.waitFor((m) => m.to.includes(email));
    const token = /\/care-home\/join#([\w-]+)/.exec(mail.text)![1]!;
    clock.advance(8 * 24 * 3600_000);
    const carer = await createPrimaryUser(t);
    const refused = await carer.device.post('/api/care-home/staff/accept', { token });
    expect(refused.statusCode).toBe(404);
    const [member] = (await manager.device.get('/api/care-home/staff')).json<{ state: string }[]>();
    expect(member!.state).toBe('invite_expired');
  });
});

describe('residents', () => {
  const goodRows = (tag: string) => [
    `Margaret,Hill,12,Susan,Hill,susan.${tag}@example.test,Daughter,resident,`,
    `Arthur,Jones,14B,Peter,Jones,peter.${tag}@example.test,Son,attorney,Peter Jones`,
  ];

  it('checks every row first, imports the good ones alone, and a second import creates nothing', async () => {
    const manager = await makeManager();
    await setUpHome(manager, 'Oak Lodge');
    const tag = manager.user.username;
    const csv = [
      HEADER,
      ...goodRows(tag),
      `Edith,Brown,3,Ann,Brown,not-an-email,Niece,,`,
      `Walter,,5,Joan,White,joan.${tag}@example.test,,best interests,`,
      `Margaret,Hill,12,Susan,Hill,susan2.${tag}@example.test,,resident,`,
      `Ivy,Green,7,Rose,Green,rose.${tag}@example.test,,attorney,`,
      '',
    ].join('\r\n');

    const before = await countUsers();
    const preview = await importCsv(manager, csv, true);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      dryRun: true,
      counts: { ready: 2, imported: 0, exists: 0, invalid: 4 },
      rows: [
        { line: 2, name: 'Margaret Hill', room: '12', state: 'ready', errors: [] },
        { line: 3, name: 'Arthur Jones', state: 'ready' },
        {
          line: 4,
          state: 'invalid',
          errors: ['Next of kin’s email is not a valid email address.'],
        },
        { line: 5, state: 'invalid', errors: ['Last name is missing.'] },
        { line: 6, state: 'invalid', errors: ['The same name and room as line 2.'] },
        {
          line: 7,
          state: 'invalid',
          errors: ['Attorney’s name is missing: it is needed when the attorney gave consent.'],
        },
      ],
    });
    expect(await countUsers()).toBe(before);

    const imported = await importCsv(manager, csv, false);
    expect(imported.json()).toMatchObject({
      dryRun: false,
      counts: { ready: 0, imported: 2, exists: 0, invalid: 4 },
    });
    // Each resident and their next of kin.
    expect(await countUsers()).toBe(before + 4);

    const second = await importCsv(manager, csv, false);
    expect(second.json()).toMatchObject({ counts: { imported: 0, exists: 2, invalid: 4 } });
    expect(await countUsers()).toBe(before + 4);

    // Each resident's own log says who added them; no mail goes to a resident's .invalid address.
    const [link] = await t.db
      .select()
      .from(careHomeResidents)
      .where(eq(careHomeResidents.room, '14B'));
    const residentLog = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.userId, link!.userId));
    expect(residentLog.map((row) => row.eventType)).toEqual(['care_home_resident_added']);
    expect(residentLog[0]!.actor).toContain('manager of Oak Lodge');
    expect(link).toMatchObject({ consentBasis: 'attorney', attorneyName: 'Peter Jones' });
    const invalidMail = await t.db
      .select()
      .from(mailQueue)
      .where(sql`${mailQueue.toAddress} like '%.invalid'`);
    expect(invalidMail).toHaveLength(0);
  });

  it('refuses a file over its limits, or with unknown columns, with a clear message', async () => {
    const manager = await makeManager();
    await setUpHome(manager, 'Pine View');
    const rows = Array.from(
      { length: 201 },
      (_, i) => `Resident,Number${i},${i},Kin,Number${i},kin${i}@example.test,,resident,`,
    );
    const tooMany = await importCsv(manager, [HEADER, ...rows].join('\n'), true);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ message: CARE_HOME_MESSAGES.importTooManyRows });

    const padded = [HEADER, `Ann,Long,1,Kin,Long,kin@example.test,${'x'.repeat(270 * 1024)},,`];
    const tooLarge = await importCsv(manager, padded.join('\n'), true);
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toMatchObject({ message: CARE_HOME_MESSAGES.importTooLarge });

    const huge = await importCsv(manager, 'x'.repeat(1100 * 1024), true);
    expect(huge.statusCode).toBe(413);

    const unknown = await importCsv(manager, 'first_name,last_name,date_of_birth\nA,B,1930', true);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toMatch(
      /^This file cannot be read: it has no room, nok_first_name, nok_last_name, nok_email column and it has columns Memento does not know \(date_of_birth\)/,
    );
    const empty = await importCsv(manager, HEADER, true);
    expect(empty.json()).toMatchObject({ message: CARE_HOME_MESSAGES.importEmpty });
  });

  it('the progress table holds counts, dates and masked emails: no title, message id or link', async () => {
    const manager = await makeManager();
    await setUpHome(manager, 'Willow Park');
    const tag = manager.user.username;
    await importCsv(manager, [HEADER, ...goodRows(tag)].join('\n'), false);
    const [margaret] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.firstName, 'Margaret'), sql`${users.email} like '%.invalid'`))
      .orderBy(sql`${users.id} desc`)
      .limit(1);
    const [susan] = await t.db.select().from(users).where(eq(users.createdById, margaret!.id));
    const videoId = randomUUID();
    const title = 'Why I gave you up';
    await t.db.insert(videos).values({
      id: videoId,
      creatorId: margaret!.id,
      recipientId: susan!.id,
      title,
      storageType: 'cloud',
      syncStatus: 'synced',
      videoUrl: `/api/cloud/videos/${videoId}/play`,
      cloudPath: `videos/${videoId}`,
      byteSize: 1000,
      durationMs: 3000,
      mimeType: 'video/webm',
    });

    const answers = [
      await manager.device.get('/api/care-home'),
      await manager.device.get('/api/care-home/staff'),
      await manager.device.get('/api/care-home/residents'),
      await importCsv(manager, [HEADER, ...goodRows(tag)].join('\n'), true),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain(title);
      expect(answer.body).not.toContain(videoId);
      expect(answer.body).not.toContain('/api/cloud');
      expect(answer.body).not.toContain('http');
      expect(answer.body).not.toContain(`susan.${tag}@example.test`);
      expect(answer.body).not.toContain(`peter.${tag}@example.test`);
    }
    const progress = answers[2]!.json<Record<string, unknown>[]>();
    expect(progress).toHaveLength(2);
    const row = progress.find((r) => r.firstName === 'Margaret')!;
    expect(row).toMatchObject({
      room: '12',
      status: 'active',
      consentBasis: 'resident',
      nextOfKin: { name: 'Susan Hill', maskedEmail: expect.stringMatching(/^s•+@example\.test$/) },
      family: { joined: 0, total: 1 },
      messages: { recorded: 1, sent: 1 },
      lastSessionAt: null,
      needsHelp: [],
      paused: false,
    });
    expect(Object.keys(row).sort()).toEqual(
      [
        'addedAt',
        'consentBasis',
        'family',
        'firstName',
        'id',
        'lastName',
        'lastSessionAt',
        'messages',
        'needsHelp',
        'nextOfKin',
        'paused',
        'room',
        'status',
        'statusChangedAt',
      ].sort(),
    );

    // Another home's manager sees none of it, and cannot record consent for this resident.
    const other = await makeManager();
    await setUpHome(other, 'Cedar Rise');
    expect((await other.device.get('/api/care-home/residents')).json()).toEqual([]);
    const foreign = await other.device.request({
      method: 'PUT',
      url: `/api/care-home/residents/${row.id as number}/consent`,
      payload: { consentBasis: 'best_interests' },
    });
    expect(foreign.statusCode).toBe(404);

    const cleared = await manager.device.request({
      method: 'PUT',
      url: `/api/care-home/residents/${row.id as number}/consent`,
      payload: { consentBasis: null },
    });
    expect(cleared.statusCode).toBe(204);
    const after = (await manager.device.get('/api/care-home/residents')).json<
      { firstName: string; needsHelp: string[] }[]
    >();
    expect(after.find((r) => r.firstName === 'Margaret')!.needsHelp).toEqual([
      'No consent recorded',
    ]);
  });

  it('a signed-out request or another device without a session is refused', async () => {
    const stranger = await TestDevice.create(t.app);
    const res = await stranger.get('/api/care-home/residents');
    expect(res.statusCode).toBe(401);
  });
});
