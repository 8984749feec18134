import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, users, videos } from '../../src/server/db/schema';
import { PROGRESS_EXPORT_PATH } from '../../src/shared/schemas/care-home-progress';
import { CARE_HOME_MESSAGES, type TResidentProgress } from '../../src/shared/schemas/care-homes';
import { TestDevice, useTestApp } from '../setup/app';
import {
  addCarer,
  CARE_HOME_CSV_HEADER,
  makeCareHome,
  makeHomeManager,
} from './support/care-homes';

// The manager downloads the progress table as a spreadsheet: the table's rows and words, safe to
// open in Excel (UTF-8 names, quoted fields, nothing read as a formula), and nothing more.

const t = useTestApp({ mail: true });

const HEADINGS =
  'Resident,Consent,Room,Next of kin,Next of kin’s email (partly hidden),Family joined,Messages recorded,Messages sent,Last session,Needs help,At the stations,Status';

/** Today in UK time, as the file names it. */
const ukDay = (date: Date) => date.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });

async function exportOf(device: TestDevice) {
  return device.get(PROGRESS_EXPORT_PATH);
}

describe('downloading the progress table', () => {
  it('gives the table’s rows in its words, quoted, with no cell a spreadsheet would run', async () => {
    const home = await makeCareHome(t, 'Rosewood House');
    const tag = home.manager.user.username;
    const more = await home.manager.device.post('/api/care-home/residents/import', {
      dryRun: false,
      csv: [
        CARE_HOME_CSV_HEADER,
        `"=HYPERLINK(""http://evil.test"",""Click"")",Smith,+44,Kim,Smith,kim.${tag}@example.test,Daughter,resident,`,
        `Zoë,"Dunne, ""Bunny""",9,Niamh,Dunne,niamh.${tag}@example.test,Niece,,`,
      ].join('\r\n'),
    });
    expect(more.json()).toMatchObject({ counts: { imported: 2, invalid: 0 } });

    // Margaret has one message sent; Arthur has left.
    const [susan] = await t.db
      .select()
      .from(users)
      .where(eq(users.createdById, home.margaret.userId));
    const videoId = randomUUID();
    const title = 'Why I gave you up';
    await t.db.insert(videos).values({
      id: videoId,
      creatorId: home.margaret.userId,
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
    const left = await home.manager.device.request({
      method: 'PUT',
      url: `/api/care-home/residents/${home.arthur.linkId}/status`,
      payload: { status: 'left' },
    });
    expect(left.statusCode).toBe(200);
    const table = (await home.manager.device.get('/api/care-home/residents')).json<
      TResidentProgress[]
    >();
    const masked = (first: string) =>
      table.find((row) => row.firstName === first)!.nextOfKin!.maskedEmail;

    const before = ukDay(new Date());
    const res = await exportOf(home.manager.device);
    const day = ukDay(new Date());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(
      [before, day].map((d) => `attachment; filename="${home.home.slug}-progress-${d}.csv"`),
    ).toContain(res.headers['content-disposition']);

    // A byte-order mark first, so Excel reads the names as UTF-8; lines end CRLF.
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.slice(0, -2).split('\r\n');
    expect(lines[0]).toBe(HEADINGS);
    // In the table's order (last name, then first name), one line a resident.
    expect(lines.slice(1)).toEqual([
      `"Zoë Dunne, ""Bunny""",No consent recorded,9,Niamh Dunne,${masked('Zoë')},0 of 1,0,0,Not yet,No consent recorded,Not offered,Living here`,
      `Ivy Green,The resident agreed,7,Rose Green,${masked('Ivy')},0 of 1,0,0,Not yet,No,Offered,Living here`,
      `Margaret Hill,The resident agreed,12,Susan Hill,${masked('Margaret')},0 of 1,1,1,Not yet,No,Offered,Living here`,
      `Arthur Jones,The resident agreed,14,Tom Jones,${masked('Arthur')},0 of 1,0,0,Not yet,No,Not offered,Left on ${day}`,
      // A name or room that starts a formula is written as text, with a single quote in front.
      `"'=HYPERLINK(""http://evil.test"",""Click"") Smith",The resident agreed,'+44,Kim Smith,${masked('=HYPERLINK("http://evil.test","Click")')},0 of 1,0,0,Not yet,No,Offered,Living here`,
    ]);

    // Counts and dates only: no title, message id, link or full family email.
    expect(text).not.toContain(title);
    expect(text).not.toContain(videoId);
    expect(text).not.toContain('/api/cloud');
    for (const who of ['susan', 'tom', 'rose', 'kim', 'niamh']) {
      expect(text).not.toContain(`${who}.${tag}@example.test`);
    }

    // Written on the manager's log, in words.
    const log = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.userId, home.manager.user.id),
          eq(auditLogs.eventType, 'care_home_progress_exported'),
        ),
      );
    expect(log).toHaveLength(1);
    expect(log[0]!.summary).toContain(
      'Downloaded the progress table of Rosewood House as a spreadsheet (5 residents)',
    );
  });

  it('is the manager’s own home only: staff, other homes and strangers get no rows', async () => {
    const home = await makeCareHome(t, 'Birch Court');
    const carer = await addCarer(t, home.manager);
    const asCarer = await exportOf(carer.device);
    expect(asCarer.statusCode).toBe(403);
    expect(asCarer.json()).toMatchObject({ message: CARE_HOME_MESSAGES.planRequired });

    // Another home's manager gets their own (empty) table, never this one's.
    const other = await makeHomeManager(t, 'Cedar Rise');
    const theirs = await exportOf(other.device);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).toBe(`\uFEFF${HEADINGS}\r\n`);

    // Staff on Professional of their own are still not this home's manager.
    await t.db
      .update(users)
      .set({ subscriptionTier: 'professional' })
      .where(eq(users.id, carer.user.id));
    const carerWithPlan = await exportOf(carer.device);
    expect(carerWithPlan.statusCode).toBe(404);
    expect(carerWithPlan.json()).toMatchObject({ message: CARE_HOME_MESSAGES.noHome });

    // Signed out, or without this device's header: refused before anything is read.
    const stranger = await TestDevice.create(t.app);
    expect((await exportOf(stranger)).statusCode).toBe(401);
    const noDevice = await t.app.inject({ method: 'GET', url: PROGRESS_EXPORT_PATH });
    expect(noDevice.statusCode).toBe(400);
    expect(noDevice.json()).toMatchObject({ code: 'DEVICE_REQUIRED' });

    for (const who of [carer, other]) {
      const log = await t.db
        .select()
        .from(auditLogs)
        .where(
          and(
            eq(auditLogs.userId, who.user.id),
            eq(auditLogs.eventType, 'care_home_progress_exported'),
          ),
        );
      expect(log).toHaveLength(who === other ? 1 : 0);
    }
  });
});
