import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import { auditLogs } from '../../src/server/db/schema';
import { createVideoStore } from '../../src/server/modules/cloud/create-video-store';
import { createOnboardedUser, createPrimaryUser, TEST_APP_URL, useTestApp } from '../setup/app';
import { startS3Server, TEST_BUCKET } from '../setup/s3';

// The settings whose effect no other test shows: each set to a value of its own, and the effect
// read where a person (or the store) would see it.

describe('MAIL_FROM', () => {
  const t = useTestApp({
    mail: true,
    env: { MAIL_FROM: 'Rose Care Home <memento@rosecare.test>' },
  });

  it('is the sender of the mail the app sends', async () => {
    const owner = await createOnboardedUser(t);
    await t.app.jobs.deliverMail();
    const mail = await t.smtp.waitFor((m) => m.to.includes(owner.nextOfKin.email));
    expect(mail.from).toEqual({
      envelope: 'memento@rosecare.test',
      header: 'Rose Care Home <memento@rosecare.test>',
    });
  });
});

describe('TRUST_PROXY', () => {
  const behindProxy = useTestApp({ env: { TRUST_PROXY: 'true' } });
  const direct = useTestApp();

  it("true: the proxy's X-Forwarded-For address is the one recorded; unset: the connection's", async () => {
    for (const [t, expected] of [
      [behindProxy, '198.51.100.4'],
      [direct, '10.0.0.8'],
    ] as const) {
      const { user, device } = await createPrimaryUser(t, {}, { ip: '10.0.0.8' });
      await device.request({
        method: 'POST',
        url: '/api/logout',
        payload: {},
        headers: { 'x-forwarded-for': '198.51.100.4' },
      });
      const rows = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, user.id));
      const logout = rows.find((row) => row.eventType === 'logout');
      expect(logout?.ipAddress).toBe(expected);
    }
  });
});

describe('S3_FORCE_PATH_STYLE', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.close();
  });

  const storeWith = (pathStyle: string) =>
    createVideoStore(
      parseConfig({
        NODE_ENV: 'test',
        APP_URL: TEST_APP_URL,
        DATA_DIR: '/tmp',
        SESSION_SECRET: 'test-session-secret-that-is-long-enough-000',
        ...s3.env,
        // A host name, not an IP address: the SDK never puts a bucket in front of an IP.
        S3_ENDPOINT: s3.endpoint.replace('127.0.0.1', 'localhost'),
        S3_FORCE_PATH_STYLE: pathStyle,
      }),
    );

  it('true (the default) names the bucket in the path; false in the host name', async () => {
    const pathStyle = new URL(
      (await (await storeWith('true')).presignedPlaybackUrl('videos/a', 'video/webm'))!,
    );
    expect(pathStyle.hostname).toBe('localhost');
    expect(pathStyle.pathname).toBe(`/${TEST_BUCKET}/videos/a`);

    const hostStyle = new URL(
      (await (await storeWith('false')).presignedPlaybackUrl('videos/a', 'video/webm'))!,
    );
    expect(hostStyle.hostname).toBe(`${TEST_BUCKET}.localhost`);
    expect(hostStyle.pathname).toBe('/videos/a');
  });
});
