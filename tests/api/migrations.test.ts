import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDatabase, PGLITE_EXTENSIONS, type Database } from '../../src/server/db/client';
import { PROJECT_ROOT } from '../../src/server/lib/paths';
import {
  insertAuditRow,
  wordEarlierAuditEntries,
} from '../../src/server/modules/audit/audit.repository';
import { toVideoIndexEntry } from '../../src/server/modules/videos/videos.presenter';
import { createServerTestDatabase } from '../setup/database';

/**
 * An installation's database as an earlier release left it: migrated up to and including
 * `lastTag`, on PGlite or (with TEST_DATABASE_URL) on a new database of that server.
 */
const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const work = mkdtempSync(path.join(os.tmpdir(), 'memento-migrations-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** The migrations folder as a release that ended at `lastTag` shipped it. */
function migrationsUpTo(lastTag: string): string {
  const folder = path.join(work, lastTag);
  cpSync(path.join(PROJECT_ROOT, 'drizzle'), folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

async function databaseAt(lastTag: string): Promise<Database> {
  const migrationsFolder = migrationsUpTo(lastTag);
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = createPgliteDatabase(new PGlite({ extensions: PGLITE_EXTENSIONS }));
    await migratePglite(database.db as never, { migrationsFolder });
    cleanups.push(() => database.close());
    return database;
  }
  const database = await createServerTestDatabase(serverUrl, {
    migrate: (direct) => migratePg(direct.db as never, { migrationsFolder }),
  });
  cleanups.push(() => database.close());
  return database;
}

// Each test builds a fresh PGlite cluster and runs every migration into it, twice over: seconds
// alone, but more than the default budget on a 2-core machine busy with the rest of the suite.
describe('upgrading an installation', { timeout: 90_000 }, () => {
  it('gives the videos indexed before migration 0008 their index entries', async () => {
    const database = await databaseAt('0007_admin_search');
    const { db } = database;
    await db.execute(sql`insert into users (id, username, first_name, last_name, email)
      values (1, 'rose', 'Rose', 'Hill', 'rose@example.test'),
             (2, 'susan', 'Susan', 'Hill', 'susan@example.test')`);
    await db.execute(sql`insert into devices (id, user_id, fingerprint_hash, device_name)
      values ('7d0c6f6e-4c1b-4d5e-9f4a-2b9a3c1d0e11', 1, 'f', 'Rose''s tablet')`);
    await db.execute(sql`insert into videos
      (id, creator_id, recipient_id, title, device_id, storage_type, sync_status, byte_size,
       duration_ms, mime_type, created_at)
      values
      ('0b6d2c1e-8f3a-4e55-9c1d-5a7b3e2f9d01', 1, 2, 'Stays on the tablet',
       '7d0c6f6e-4c1b-4d5e-9f4a-2b9a3c1d0e11', 'local', 'local_only', 180000, 3200,
       'video/webm', '2026-03-01 09:15:30.123456+00'),
      ('0b6d2c1e-8f3a-4e55-9c1d-5a7b3e2f9d02', 1, 2, 'For Susan', null, 'cloud', 'synced',
       5000000000, 61000, 'video/mp4', '2026-03-02 18:00:00+00')`);

    await database.migrate();

    // Both drivers answer `execute` with the rows under `rows`.
    const { rows } = (await db.execute(
      sql`select id, recipient_id as "recipientId", title, device_id as "deviceId",
        storage_type as "storageType", sync_status as "syncStatus", byte_size as "byteSize",
        duration_ms as "durationMs", mime_type as "mimeType",
        (extract(epoch from created_at) * 1000)::float8 as "createdAtMs",
        release_rule as "releaseRule", release_at as "releaseAt", sha256,
        index_entry as "indexEntry" from videos order by id`,
    )) as unknown as { rows: Record<string, unknown>[] };
    const entries = rows.map((row) => JSON.parse(row.indexEntry as string) as unknown);
    expect(entries).toEqual(
      rows.map((row) =>
        toVideoIndexEntry({
          id: row.id as string,
          recipientId: row.recipientId as number,
          title: row.title as string,
          deviceId: row.deviceId as string | null,
          storageType: row.storageType as 'local' | 'cloud',
          syncStatus: row.syncStatus as 'local_only' | 'synced',
          byteSize: Number(row.byteSize),
          durationMs: row.durationMs as number,
          mimeType: row.mimeType as string,
          createdAt: new Date(row.createdAtMs as number),
          releaseRule: row.releaseRule as 'now',
          releaseAt: row.releaseAt === null ? null : new Date(row.releaseAt as string),
          sha256: row.sha256 as string | null,
        }),
      ),
    );
    // Spelled out once, so the test does not only compare the presenter with itself.
    expect(entries[0]).toMatchObject({
      title: null,
      createdAt: '2026-03-01T09:15:30.123Z',
      release: { rule: 'now', at: null },
    });
    expect(entries[1]).toMatchObject({ title: 'For Susan', metadata: { byteSize: 5000000000 } });
  });

  it('gives the cloud copies indexed before migration 0023 their checksum in the index', async () => {
    const database = await databaseAt('0021_enhanced_encryption');
    const { db } = database;
    await db.execute(sql`insert into users (id, username, first_name, last_name, email)
      values (1, 'rose', 'Rose', 'Hill', 'rose@example.test'),
             (2, 'susan', 'Susan', 'Hill', 'susan@example.test')`);
    const checksum = 'a'.repeat(64);
    await db.execute(sql`insert into videos
      (id, creator_id, recipient_id, title, storage_type, sync_status, sha256, byte_size,
       duration_ms, mime_type)
      values
      ('0b6d2c1e-8f3a-4e55-9c1d-5a7b3e2f9d03', 1, 2, 'In the cloud', 'cloud', 'synced',
       ${checksum}, 1000, 1000, 'video/webm'),
      ('0b6d2c1e-8f3a-4e55-9c1d-5a7b3e2f9d04', 1, 2, 'Only here', 'local', 'local_only',
       null, 1000, 1000, 'video/webm')`);

    await database.migrate();

    const { rows } = (await db.execute(
      sql`select index_entry as "indexEntry" from videos order by id`,
    )) as unknown as { rows: { indexEntry: string }[] };
    expect(rows.map((row) => JSON.parse(row.indexEntry) as unknown)).toEqual([
      expect.objectContaining({ title: 'In the cloud', sha256: checksum }),
      expect.objectContaining({ title: null, sha256: null }),
    ]);
  });

  it('counts the videos each recipient already had before migration 0009', async () => {
    const database = await databaseAt('0008_video_index_entries');
    const { db } = database;
    await db.execute(sql`insert into users (id, username, first_name, last_name, email, category, created_by_id)
      values (1, 'rose', 'Rose', 'Hill', 'rose@example.test', 'primary', null),
             (2, 'susan', 'Susan', 'Hill', 'susan@example.test', 'next_of_kin', 1),
             (3, 'tom', 'Tom', 'Hill', 'tom@example.test', 'family', 1)`);
    await db.execute(sql`insert into videos (id, creator_id, recipient_id, byte_size, duration_ms, mime_type)
      select gen_random_uuid(), 1, 2, 1000, 1000, 'video/webm' from generate_series(1, 3)`);

    await database.migrate();

    const { rows } = (await db.execute(
      sql`select id, video_count as "videoCount" from users order by id`,
    )) as unknown as { rows: { id: number; videoCount: number }[] };
    expect(rows).toEqual([
      { id: 1, videoCount: 0 },
      { id: 2, videoCount: 3 },
      { id: 3, videoCount: 0 },
    ]);
  });

  it('words the audit events written before migration 0010, newest first, a batch at a time', async () => {
    const database = await databaseAt('0009_recipient_video_counts');
    const { db } = database;
    await db.execute(sql`insert into audit_logs
      (event_type, user_id, username, timestamp, ip_address, successful, details)
      values
      ('login', 7, 'rose', '2026-03-01 09:15:30.123456+00', '203.0.113.7', true,
       ${JSON.stringify({ method: 'username_password', userAgent: CHROME_ON_LINUX })}::jsonb),
      ('password_reset', 7, 'rose', '2026-03-02 10:00:00+00', null, true,
       ${JSON.stringify({ admin: 'ada', userAgent: null })}::jsonb),
      ('login_failed', null, null, '2026-03-03 11:00:00+00', '198.51.100.2', false, '{}'),
      ('login_failed', null, null, '2026-03-04 12:00:00+00', null, false, 'null')`);

    await database.migrate();
    const entries = async () => {
      const { rows } = (await db.execute(
        sql`select entry from audit_logs order by id`,
      )) as unknown as { rows: { entry: string | null }[] };
      return rows.map((row) => (row.entry === null ? null : (JSON.parse(row.entry) as unknown)));
    };
    expect(await entries()).toEqual([null, null, null, null]);

    expect(await wordEarlierAuditEntries(database.db, { batchSize: 2 })).toBe(4);
    expect(await entries()).toEqual([
      {
        id: 1,
        eventType: 'login',
        userId: 7,
        username: 'rose',
        timestamp: '2026-03-01T09:15:30.123Z',
        ipAddress: '203.0.113.7',
        successful: true,
        details: 'with username and password · Chrome on Linux',
        actor: null,
      },
      expect.objectContaining({ id: 2, details: null, actor: 'Administrator ada' }),
      expect.objectContaining({ id: 3, userId: null, successful: false, details: null }),
      expect.objectContaining({ id: 4, ipAddress: null, details: null, actor: null }),
    ]);
    expect(await wordEarlierAuditEntries(database.db)).toBe(0);

    // An event written after the migration has its entry at once, worded as it is written.
    await insertAuditRow(db, {
      eventType: 'login',
      userId: 7,
      username: 'rose',
      details: { method: 'email_access_code', userAgent: CHROME_ON_LINUX },
    });
    expect((await entries())[4]).toMatchObject({
      id: 5,
      details: 'with an access code · Chrome on Linux',
      actor: null,
    });
  });
});
