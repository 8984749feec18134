import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, supportRequests, users } from '../../src/server/db/schema';
import { SUPPORT_MESSAGES } from '../../src/shared/schemas/support';
import { addWorkingHours } from '../../src/server/modules/support/working-hours';
import { createPrimaryUser, TestClock, useTestApp } from '../setup/app';
import { enrolSecondFactor } from './support/admin';
import { makeHomeManager } from './support/care-homes';

// A care home asks for help from the app; the operators get it by email and in the Support tab,
// Professional homes first, and the home sees when to expect a reply.

const clock = new TestClock();
const t = useTestApp({ mail: true, admin: true, clock });

type Manager = Awaited<ReturnType<typeof createPrimaryUser>>;

async function homeWithManager(name: string, tier: 'professional' | 'premium' = 'professional') {
  const manager = await makeHomeManager(t, name);
  if (tier !== 'professional') {
    await t.db.update(users).set({ subscriptionTier: tier }).where(eq(users.id, manager.user.id));
  }
  return manager;
}

async function addStaff(manager: Manager, homeName: string) {
  const email = `carer.${manager.user.username}@example.test`;
  await manager.device.post('/api/care-home/staff', { firstName: 'Jane', lastName: 'Doe', email });
  const mail = await t.smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith(homeName));
  const token = /\/care-home\/join#([\w-]+)/.exec(mail.text)![1]!;
  const carer = await createPrimaryUser(t, { email });
  expect((await carer.device.post('/api/care-home/staff/accept', { token })).statusCode).toBe(200);
  return carer;
}

const request = {
  category: 'cannot_record',
  urgency: 'urgent',
  description: 'The lounge tablet shows a blank screen when Margaret presses record.',
  diagnostics: {
    browser: 'Safari 18 on iPad',
    appVersion: '1.4.0',
    deviceCount: 3,
    storageUsedBytes: 52428800,
  },
};

describe('support requests', () => {
  it('counts working hours only: Monday to Friday, 9 to 5, UK time', () => {
    // Friday 16:00 London + 4 working hours = Monday 12:00.
    expect(addWorkingHours(new Date('2026-12-04T16:00:00Z'), 4).toISOString()).toBe(
      '2026-12-07T12:00:00.000Z',
    );
    // In summer London is an hour ahead: Tuesday 08:00 UTC is 09:00 there.
    expect(addWorkingHours(new Date('2026-06-02T08:00:00Z'), 8).toISOString()).toBe(
      '2026-06-02T16:00:00.000Z',
    );
  });

  it('reach the operators by email with the target, and the home sees it', async () => {
    const manager = await homeWithManager('Rosewood House');
    const sent = await manager.device.post('/api/care-home/support', request);
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({
      status: 'received',
      urgency: 'urgent',
      target: 'We reply within 4 working hours.',
    });
    const { createdAt, dueAt } = sent.json<{ createdAt: string; dueAt: string }>();
    expect(dueAt).toBe(addWorkingHours(new Date(createdAt), 4).toISOString());

    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(t.admin.user.email) && m.subject.includes('Rosewood House'),
    );
    expect(mail.subject).toBe('[Priority][Urgent] Rosewood House: A resident cannot record');
    expect(mail.text).toContain('blank screen');
    expect(mail.text).toContain('Safari 18 on iPad');
    expect(mail.text).toContain(manager.user.email);

    const mine = await manager.device.get('/api/care-home/support');
    expect(mine.json()).toMatchObject({
      isPriority: true,
      targets: {
        urgent: 'We reply within 4 working hours.',
        normal: 'We reply within 1 working day.',
      },
      requests: [{ category: 'cannot_record', status: 'received' }],
    });
    const [audit] = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.eventType, 'support_request_sent'));
    expect(audit?.userId).toBe(manager.user.id);
  });

  it('are refused with clear messages when incomplete or carrying more than diagnostics', async () => {
    const manager = await homeWithManager('Elm Lodge');
    const short = await manager.device.post('/api/care-home/support', {
      ...request,
      description: 'help',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('at least 10 characters');
    const noUrgency = await manager.device.post('/api/care-home/support', {
      ...request,
      urgency: 'asap',
    });
    expect(noUrgency.statusCode).toBe(400);
    expect(noUrgency.body).toContain('Please choose how urgent it is');
    const withTitles = await manager.device.post('/api/care-home/support', {
      ...request,
      diagnostics: { browser: 'Chrome', titles: ['Why I gave you up'] },
    });
    expect(withTitles.statusCode).toBe(400);
    expect(withTitles.body).toContain(
      'only hold the browser, app version, device count and storage use',
    );
    expect(withTitles.body).not.toContain('Why I gave you up');
    const rows = await t.db.select().from(supportRequests);
    expect(rows.every((row) => !JSON.stringify(row).includes('Why I gave you up'))).toBe(true);
  });

  it('are for the home’s manager and its staff only', async () => {
    const manager = await homeWithManager('Oak View');
    const carer = await addStaff(manager, 'Oak View');
    const byStaff = await carer.device.post('/api/care-home/support', {
      ...request,
      urgency: 'normal',
    });
    expect(byStaff.statusCode).toBe(201);
    expect(byStaff.json()).toMatchObject({
      requesterName: `${carer.user.firstName} ${carer.user.lastName}`,
    });

    const stranger = await createPrimaryUser(t);
    const refused = await stranger.device.post('/api/care-home/support', request);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: SUPPORT_MESSAGES.noHome });
    expect((await stranger.device.get('/api/care-home/support')).statusCode).toBe(403);
    // An ordinary user is not an admin either.
    expect((await manager.device.get('/api/admin/support')).statusCode).toBe(403);
  });

  it('show in the admin Support tab, Professional first then oldest, and are marked answered', async () => {
    const lapsed = await homeWithManager('Ash Grove', 'premium');
    const older = await lapsed.device.post('/api/care-home/support', {
      ...request,
      urgency: 'normal',
    });
    expect(older.json()).toMatchObject({ target: 'We reply within 3 working days (best effort).' });
    const pro = await homeWithManager('Beech House');
    const newer = await pro.device.post('/api/care-home/support', {
      ...request,
      urgency: 'normal',
    });
    expect(newer.statusCode).toBe(201);

    const admin = t.admin.device;
    expect((await admin.get('/api/admin/support')).statusCode).toBe(403);
    await enrolSecondFactor(admin);
    const list = await admin.get('/api/admin/support');
    expect(list.statusCode).toBe(200);
    const homes = list.json<{ homeName: string; isPriority: boolean }[]>().map((r) => r.homeName);
    expect(homes.indexOf('Beech House')).toBeLessThan(homes.indexOf('Ash Grove'));
    expect(homes.at(-1)).toBe('Ash Grove');

    const id = newer.json<{ id: number }>().id;
    const answered = await admin.post(`/api/admin/support/${id}/answered`);
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({ status: 'answered' });
    const seen = await pro.device.get('/api/care-home/support');
    expect(seen.json()).toMatchObject({ requests: [{ id, status: 'answered' }] });
    const [audit] = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.eventType, 'admin_support_answered'));
    expect(audit?.userId).toBe(t.admin.user.id);
    expect((await admin.post('/api/admin/support/999999/answered')).statusCode).toBe(404);
    expect((await admin.post('/api/admin/support/abc/answered')).statusCode).toBe(400);
  });
});
