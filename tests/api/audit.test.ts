import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { auditLogs } from '../../src/server/db/schema';
import { wordEarlierAuditEntries } from '../../src/server/modules/audit/audit.repository';
import type { TAuditLogEntry } from '../../src/shared/schemas/audit';
import { createPrimaryUser, TestDevice, useTestApp, withTestApp } from '../setup/app';
import { signInWithPassword } from './support/auth';

const t = useTestApp();

describe('GET /api/audit-logs', () => {
  it("lists the user's own events newest first, including attempts by others against the account", async () => {
    await createPrimaryUser(t); // the installation's admin, so the next user is not
    const owner = await createPrimaryUser(t);
    const stranger = await TestDevice.create(t.app);
    await signInWithPassword(stranger, owner.user.username, 'Wrong-Guess-123');

    const res = await owner.device.get('/api/audit-logs');
    expect(res.statusCode).toBe(200);
    const entries = res.json<TAuditLogEntry[]>();
    expect(entries.map((entry) => [entry.eventType, entry.successful])).toEqual([
      ['login_failed', false],
      ['register', true],
    ]);
    expect(entries[0]).toMatchObject({
      userId: owner.user.id,
      username: owner.user.username,
      ipAddress: stranger.ip,
      details: 'wrong password · Chrome on Linux',
      timestamp: expect.stringMatching(/Z$/),
    });
  });

  it('ignores ?userId= for a non-admin (no IDOR)', async () => {
    const admin = await createPrimaryUser(t);
    const alice = await createPrimaryUser(t);
    const bob = await createPrimaryUser(t);
    const res = await bob.device.get(`/api/audit-logs?userId=${alice.user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<TAuditLogEntry[]>().every((entry) => entry.userId === bob.user.id)).toBe(true);
    expect(admin.user.id).toBeGreaterThan(0);
  });

  it('lets an admin filter by any user', async () => {
    await withTestApp(async (fresh) => {
      const admin = await createPrimaryUser(fresh);
      const alice = await createPrimaryUser(fresh);
      const res = await admin.device.get(`/api/audit-logs?userId=${alice.user.id}`);
      expect(res.json<TAuditLogEntry[]>()).toEqual([
        expect.objectContaining({ userId: alice.user.id, eventType: 'register' }),
      ]);
    });
  });

  it("shows an admin everyone's events newest first without a filter, and only theirs with their own id", async () => {
    await withTestApp(async (fresh) => {
      const admin = await createPrimaryUser(fresh);
      const alice = await createPrimaryUser(fresh);
      const bob = await createPrimaryUser(fresh);
      const everyone = (await admin.device.get('/api/audit-logs')).json<TAuditLogEntry[]>();
      expect(
        everyone.filter((entry) => entry.eventType === 'register').map((entry) => entry.userId),
      ).toEqual([bob.user.id, alice.user.id, admin.user.id]);
      const times = everyone.map((entry) => entry.timestamp);
      expect(times).toEqual([...times].sort().reverse());

      const own = (await admin.device.get(`/api/audit-logs?userId=${admin.user.id}`)).json<
        TAuditLogEntry[]
      >();
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((entry) => entry.userId === admin.user.id)).toBe(true);
    });
  });

  it('shows an event from before migration 0010 without its words until they are written', async () => {
    await withTestApp(async (fresh) => {
      const owner = await createPrimaryUser(fresh);
      const shown = async () =>
        (await owner.device.get('/api/audit-logs')).json<TAuditLogEntry[]>()[0];
      // As migrations 0010 and 0012 leave an earlier row: no words, no entry, no writer (the
      // trigger is held off). The server reads the page after its start, as it would.
      await fresh.db.execute(sql`alter table audit_logs disable trigger audit_logs_entry`);
      await fresh.db.execute(
        sql`update audit_logs set summary = null, actor = null, entry = null, entry_written_in = null`,
      );
      await fresh.db.execute(sql`alter table audit_logs enable trigger audit_logs_entry`);
      const unworded = await shown();
      expect(unworded).toMatchObject({ eventType: 'register', details: null, actor: null });

      // Wording it is a write the page the server cached for the session sees.
      expect(await wordEarlierAuditEntries(fresh.db)).toBeGreaterThan(0);
      expect(await shown()).toEqual({ ...unworded, details: 'Chrome on Linux' });
    });
  });

  it('shows an empty detail as null and keeps rows of unknown users', async () => {
    await t.db
      .insert(auditLogs)
      .values({ eventType: 'login_failed', username: null, successful: false, details: {} });
    await withTestApp(async (fresh) => {
      const admin = await createPrimaryUser(fresh);
      await fresh.db
        .insert(auditLogs)
        .values({ eventType: 'login_failed', username: null, successful: false, details: {} });
      const entries = (await admin.device.get('/api/audit-logs')).json<TAuditLogEntry[]>();
      expect(entries[0]).toMatchObject({ username: null, details: null, successful: false });
    });
  });

  it('is refused when signed out and rejects a bad userId', async () => {
    const device = await TestDevice.create(t.app);
    expect((await device.get('/api/audit-logs')).statusCode).toBe(401);
    const owner = await createPrimaryUser(t);
    for (const userId of ['abc', '0', '1.5']) {
      const refused = await owner.device.get(`/api/audit-logs?userId=${userId}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ fields: { userId: 'User not found' } });
    }
  });
});
