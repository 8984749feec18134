import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { insertAuditRow } from '../../src/server/modules/audit/audit.repository';
import type { TAuditLogEntry } from '../../src/shared/schemas/audit';
import { createOnboardedUser, type TestDevice, useTestApp, useTwoTestApps } from '../setup/app';

// A server sends a session the audit log page it sent before, without reading the rows, only while
// no entry of that page (the account's own, one account's for the admin's filter, everyone's for
// the admin) has been written by a transaction the page's snapshot had not seen. Every new event
// must show on the next visit, whoever wrote it and whenever it committed.

async function auditPage(device: TestDevice, query = ''): Promise<TAuditLogEntry[]> {
  const res = await device.get(`/api/audit-logs${query}`);
  expect(res.statusCode).toBe(200);
  return res.json<TAuditLogEntry[]>();
}

const eventTypes = (page: TAuditLogEntry[]) => page.map((entry) => entry.eventType);

/** A failed sign-in of `user`'s, written straight into the log as the app writes one. */
const failedSignIn = (user: { id: number; username: string }) => ({
  eventType: 'login_failed' as const,
  userId: user.id,
  username: user.username,
  successful: false,
  details: { reason: 'wrong_password' },
});

describe('GET /api/audit-logs cached on one server', () => {
  const t = useTestApp({ admin: { email: 'admin@care.test' } });

  it('shows every new event at the next visit, and sends the page it cached while none comes', async () => {
    const alice = await createOnboardedUser(t);
    const sent = (await alice.device.get('/api/audit-logs')).body;
    expect(eventTypes(JSON.parse(sent) as TAuditLogEntry[])[0]).toBe('onboarding_completed');

    // A row written with the entry's trigger off is one no snapshot can tell from an old one:
    // the page cached goes out again, which shows it was not read. (Every real write has a writer.)
    await t.db.execute(sql`alter table audit_logs disable trigger audit_logs_entry`);
    try {
      await insertAuditRow(t.db, failedSignIn(alice.user));
    } finally {
      await t.db.execute(sql`alter table audit_logs enable trigger audit_logs_entry`);
    }
    expect((await alice.device.get('/api/audit-logs')).body).toBe(sent);

    // An event through the app, and one written straight into the database, each show at once.
    const added = await alice.device.post('/api/recipients', {
      firstName: 'Tom',
      lastName: 'Hill',
      category: 'family',
      email: `tom.${alice.user.username}@example.test`,
    });
    expect(added.statusCode).toBe(201);
    const afterAdding = await auditPage(alice.device);
    expect(afterAdding[0]).toMatchObject({
      eventType: 'recipient_added',
      details: 'Added recipient Tom Hill · Chrome on Linux',
    });
    await insertAuditRow(t.db, failedSignIn(alice.user));
    const afterFailing = await auditPage(alice.device);
    expect(afterFailing[0]).toMatchObject({ eventType: 'login_failed', userId: alice.user.id });
    expect(afterFailing).toHaveLength(afterAdding.length + 1);
  });

  it('keeps each account’s page to itself: another’s events leave it as it was', async () => {
    const alice = await createOnboardedUser(t);
    const bob = await createOnboardedUser(t);
    const hers = await auditPage(alice.device);
    await insertAuditRow(t.db, failedSignIn(bob.user));
    expect(await auditPage(alice.device)).toEqual(hers);
    expect((await auditPage(bob.device))[0]).toMatchObject({ eventType: 'login_failed' });
    expect(hers.every((entry) => entry.userId === alice.user.id)).toBe(true);
  });

  it('shows the admin every account’s new event, and each filtered page its own', async () => {
    const alice = await createOnboardedUser(t);
    const everyone = await auditPage(t.admin.device);
    const filtered = await auditPage(t.admin.device, `?userId=${alice.user.id}`);
    expect(filtered.every((entry) => entry.userId === alice.user.id)).toBe(true);
    // Each page is cached on its own: neither is sent for the other.
    expect(await auditPage(t.admin.device)).toEqual(everyone);
    expect(await auditPage(t.admin.device, `?userId=${alice.user.id}`)).toEqual(filtered);

    const bob = await createOnboardedUser(t);
    const withBob = await auditPage(t.admin.device);
    expect(withBob[0]).toMatchObject({ eventType: 'onboarding_completed', userId: bob.user.id });
    // Bob's events are not Alice's: her page as the admin filtered it stands.
    expect(await auditPage(t.admin.device, `?userId=${alice.user.id}`)).toEqual(filtered);

    await insertAuditRow(t.db, failedSignIn(alice.user));
    expect((await auditPage(t.admin.device, `?userId=${alice.user.id}`))[0]).toMatchObject({
      eventType: 'login_failed',
      userId: alice.user.id,
    });
    expect((await auditPage(t.admin.device))[0]).toMatchObject({
      eventType: 'login_failed',
      userId: alice.user.id,
    });
  });

  it('never sends every account’s page to an admin who is no longer one', async () => {
    const alice = await createOnboardedUser(t);
    const everyone = await auditPage(t.admin.device);
    expect(everyone.some((entry) => entry.userId === alice.user.id)).toBe(true);
    await t.db.update(users).set({ isAdmin: false }).where(eq(users.id, t.admin.user.id));
    try {
      const own = await auditPage(t.admin.device);
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((entry) => entry.userId === t.admin.user.id)).toBe(true);
    } finally {
      await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, t.admin.user.id));
    }
  });

  it('answers a session that ended with 401, not with the page it was sent before', async () => {
    const alice = await createOnboardedUser(t);
    const oldTab = alice.device.withDeviceId(alice.device.deviceId); // keeps the old cookie
    expect((await auditPage(oldTab)).length).toBeGreaterThan(0);
    expect((await alice.device.post('/api/logout')).statusCode).toBe(200);
    const res = await oldTab.get('/api/audit-logs');
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('onboarding_completed');
  });
});

describe('GET /api/audit-logs cached on two servers sharing one PostgreSQL', () => {
  const servers = useTwoTestApps();

  it('shows on one server an event written through the other at once', async () => {
    const alice = await createOnboardedUser(servers.a);
    const onB = alice.device.onApp(servers.b.app);
    const before = await auditPage(alice.device);
    expect(await auditPage(onB)).toEqual(before);
    const added = await onB.post('/api/recipients', {
      firstName: 'Tom',
      lastName: 'Hill',
      category: 'family',
      email: `tom.${alice.user.username}@example.test`,
    });
    expect(added.statusCode).toBe(201);
    expect((await auditPage(alice.device))[0]).toMatchObject({ eventType: 'recipient_added' });
  });

  it('shows an event whose transaction was still running when the page was read', async () => {
    const alice = await createOnboardedUser(servers.a);
    const shownBefore = await auditPage(alice.device);
    await servers.b.db.transaction(async (tx) => {
      // Written (its id and time taken) but not committed...
      await insertAuditRow(tx, failedSignIn(alice.user));
      // ...when another event commits: the page is read again, and cached on server A with a
      // snapshot in which the first one's transaction is still running.
      await insertAuditRow(servers.a.db, failedSignIn(alice.user));
      expect(await auditPage(alice.device)).toHaveLength(shownBefore.length + 1);
    });
    // The first commits with an id and a time below the second's: it shows all the same.
    const shownAfter = await auditPage(alice.device);
    expect(shownAfter).toHaveLength(shownBefore.length + 2);
    expect(eventTypes(shownAfter.slice(0, 2))).toEqual(['login_failed', 'login_failed']);
  });

  it('ends a session on one server at once on the other, page cached or not', async () => {
    const alice = await createOnboardedUser(servers.a);
    const oldTabOnA = alice.device.withDeviceId(alice.device.deviceId);
    expect((await auditPage(oldTabOnA)).length).toBeGreaterThan(0);
    expect((await alice.device.onApp(servers.b.app).post('/api/logout')).statusCode).toBe(200);
    expect((await oldTabOnA.get('/api/audit-logs')).statusCode).toBe(401);
  });
});
