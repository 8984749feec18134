import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { uploads, users } from '../../src/server/db/schema';
import { PROGRESS_EXPORT_PATH } from '../../src/shared/schemas/care-home-progress';
import type { TResidentProgress } from '../../src/shared/schemas/care-homes';
import { useTestApp, type TestDevice } from '../setup/app';
import { indexVideo } from '../setup/cloud';
import {
  CARE_HOME_CSV_HEADER,
  makeCareHome,
  makeCarer,
  makeStation,
  residentTablet,
  saveStationTake,
  STATION_WEBM,
} from './support/care-homes';

// The progress table asks for help when a resident's recording has started for the cloud and not
// finished for over a day, counting them and naming none; and it comes in one order, the page's
// default, whatever the database's collation, so the spreadsheet matches the screen.

const t = useTestApp({ mail: true });

const HOUR = 3600_000;
const STUCK_ONE = 'A recording has not finished sending for over a day';
const TITLE = 'Why I gave you up';
/** The recording is one part, so its checksum is the part's too. */
const SHA = createHash('sha256').update(STATION_WEBM).digest('hex');

type Home = Awaited<ReturnType<typeof makeCareHome>>;

async function progressOf(home: Home) {
  const res = await home.manager.device.get('/api/care-home/residents');
  expect(res.statusCode).toBe(200);
  return { body: res.body, rows: res.json<TResidentProgress[]>() };
}

async function needsHelpOf(home: Home, firstName: string) {
  const { rows } = await progressOf(home);
  return rows.find((row) => row.firstName === firstName)!.needsHelp;
}

/** Says the upload started this many hours ago, as a device that lost its way would leave it. */
async function startedHoursAgo(uploadId: string, hours: number) {
  await t.db
    .update(uploads)
    .set({ createdAt: new Date(Date.now() - hours * HOUR) })
    .where(eq(uploads.id, uploadId));
}

interface Started {
  uploadId: string;
  parts: { partNumber: number; url: string }[];
}

/** The resident's tablet starts sending a recording for their next of kin and sends no part. */
async function startSending(tablet: TestDevice, home: Home) {
  const [kin] = await t.db
    .select()
    .from(users)
    .where(and(eq(users.createdById, home.margaret.userId), eq(users.category, 'next_of_kin')));
  const videoId = await indexVideo(tablet, kin!.id, STATION_WEBM.length);
  const started = await tablet.post('/api/uploads', {
    videoId,
    title: TITLE,
    promptId: null,
    byteSize: STATION_WEBM.length,
    sha256: SHA,
  });
  expect(started.statusCode).toBe(200);
  return { videoId, ...started.json<Started>() };
}

/** The tablet comes back and finishes: its one part, then complete. */
async function finishSending(tablet: TestDevice, upload: Started) {
  const [part] = upload.parts;
  const sent = await tablet.request({
    method: 'PUT',
    url: part!.url,
    payload: STATION_WEBM,
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(sent.statusCode).toBe(200);
  const completed = await tablet.post(`/api/uploads/${upload.uploadId}/complete`, {
    parts: [{ partNumber: 1, etag: sent.headers.etag, sha256: SHA }],
  });
  expect(completed.statusCode).toBe(200);
}

describe('the progress table and stuck uploads', () => {
  it('asks for help when a recording has not finished sending for over a day, naming none', async () => {
    const home = await makeCareHome(t, 'Beech Lodge');
    const tablet = await residentTablet(t, home.margaret.userId, 'premium');
    const first = await startSending(tablet, home);

    // Under way for 23 hours: a slow connection, not yet a worry.
    await startedHoursAgo(first.uploadId, 23);
    expect(await needsHelpOf(home, 'Margaret')).toEqual([]);

    // 25 hours: the manager is told, in words, with a count and nothing more.
    await startedHoursAgo(first.uploadId, 25);
    const stuck = await progressOf(home);
    expect(stuck.rows.find((row) => row.firstName === 'Margaret')!.needsHelp).toEqual([STUCK_ONE]);
    expect(stuck.rows.find((row) => row.firstName === 'Arthur')!.needsHelp).toEqual([]);
    expect(stuck.body).not.toContain(TITLE);
    expect(stuck.body).not.toContain(first.videoId);
    expect(stuck.body).not.toContain(first.uploadId);
    expect(stuck.body).not.toContain('/api/');

    // A second one stuck is counted, still unnamed; the spreadsheet says the same.
    const second = await startSending(tablet, home);
    await startedHoursAgo(second.uploadId, 30);
    expect(await needsHelpOf(home, 'Margaret')).toEqual([
      '2 recordings have not finished sending for over a day',
    ]);
    const sheet = await home.manager.device.get(PROGRESS_EXPORT_PATH);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.body).toContain('2 recordings have not finished sending for over a day');
    for (const secret of [TITLE, first.videoId, second.videoId, first.uploadId, second.uploadId]) {
      expect(sheet.body).not.toContain(secret);
    }

    // Both finish: nothing to help with.
    await finishSending(tablet, first);
    expect(await needsHelpOf(home, 'Margaret')).toEqual([STUCK_ONE]);
    await finishSending(tablet, second);
    expect(await needsHelpOf(home, 'Margaret')).toEqual([]);
  });

  it('a take saved at a station finishes at once, however long ago it started', async () => {
    const home = await makeCareHome(t, 'Hazel Court');
    const { staffId } = await makeCarer(t, home.manager);
    const station = await makeStation(t, home.manager);
    expect((await station.post('/api/station/sign-in', { staffId, pin: '4821' })).statusCode).toBe(
      204,
    );
    const picked = await station.post('/api/station/resident', {
      residentId: home.ivy.userId,
    });
    expect(picked.statusCode).toBe(200);
    const [kin] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.createdById, home.ivy.userId), eq(users.category, 'next_of_kin')));
    expect((await saveStationTake(station, kin!.id)).statusCode).toBe(201);
    const [upload] = await t.db.select().from(uploads).where(eq(uploads.userId, home.ivy.userId));
    expect(upload!.status).toBe('completed');
    await startedHoursAgo(upload!.id, 25);
    expect(await needsHelpOf(home, 'Ivy')).toEqual([]);
  });

  it('comes in the page’s own order, by last name then first, and the spreadsheet matches', async () => {
    const home = await makeCareHome(t, 'Larch House');
    const tag = home.manager.user.username;
    // A lower-case 'de' sorts among the Ds, an accented É among the Es: not by byte value.
    const more = await home.manager.device.post('/api/care-home/residents/import', {
      dryRun: false,
      csv: [
        CARE_HOME_CSV_HEADER,
        `Ann,de Souza,3,Kit,de Souza,kit.${tag}@example.test,Son,resident,`,
        `Bea,Éclair,5,Lou,Éclair,lou.${tag}@example.test,Niece,resident,`,
        `Al,Hill,6,Max,Hill,max.${tag}@example.test,Son,resident,`,
      ].join('\r\n'),
    });
    expect(more.json()).toMatchObject({ counts: { imported: 3 } });
    const names = (await progressOf(home)).rows.map((row) => `${row.firstName} ${row.lastName}`);
    expect(names).toEqual([
      'Ann de Souza',
      'Bea Éclair',
      'Ivy Green',
      'Al Hill',
      'Margaret Hill',
      'Arthur Jones',
    ]);
    const sheet = await home.manager.device.get(PROGRESS_EXPORT_PATH);
    const lines = sheet.rawPayload.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(names);
  });
});
