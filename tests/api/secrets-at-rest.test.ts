import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistration, GOOD_PASSWORD, NEXT_OF_KIN } from '../setup/app';
import { HttpDevice } from '../setup/http-client';
import { startServerProcess, type ServerProcess } from '../setup/server-process';
import { extractCode, startSmtpServer, type TestSmtpServer } from '../setup/smtp';

// No code, token or secret is ever written to disk in plain text. The whole safety flow runs
// against the real server on the embedded database (on disk, write-ahead log and all), then every
// file under DATA_DIR is searched for every code the flow saw.

const NEW_PASSWORD = 'Roses&Scones-2027';

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true })
    .map((entry) => path.join(root, String(entry)))
    .filter((file) => statSync(file).isFile());
}

/** The forms a code could be stored in: as shown, without hyphens, in lower case. */
function formsOf(code: string): string[] {
  const bare = code.replaceAll('-', '');
  return [code, bare, code.toLowerCase(), bare.toLowerCase()];
}

let smtp: TestSmtpServer;
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'memento-secrets-')), 'data');
  server = await startServerProcess({ DATA_DIR: dataDir, SMTP_URL: smtp.url });
});
afterAll(async () => {
  await server.stop();
  await smtp.close();
});

// The flow's steps are tests of their own, one after another on the one server; the last searches
// the data directory for every code they saw.
describe('secrets at rest', () => {
  const codes: string[] = [];
  /** The code in the next mail to `email` after the `after`-th message, kept for the search. */
  const mailTo = async (email: string, length: 16 | 8, after: number) => {
    const mail = await smtp.waitFor(
      (m) => m.to.includes(email) && smtp.messages.indexOf(m) >= after,
      10_000,
    );
    const code = extractCode(mail, length);
    codes.push(code);
    return code;
  };
  let owner: HttpDevice;
  let nextOfKinCode: string;

  it('the owner registers and names a next of kin, who is mailed their emergency code', async () => {
    owner = await HttpDevice.register(server.baseUrl);
    const registered = await owner.post(
      '/api/register',
      buildRegistration(owner, { email: 'margaret@example.test', username: 'margaret' }),
    );
    expect(registered.status).toBe(201);

    // The next of kin's emergency code: shown once, and mailed.
    const mark = smtp.messages.length;
    const nextOfKin = await owner.post<{ emergencyAccessCode: string }>('/api/recipients', {
      ...NEXT_OF_KIN,
      email: 'susan@example.test',
    });
    nextOfKinCode = nextOfKin.body.emergencyAccessCode;
    codes.push(nextOfKinCode);
    await mailTo('susan@example.test', 16, mark);
    expect((await owner.post('/api/user/complete-onboarding')).status).toBe(200);
  });

  it('a family recipient is given an access code, then a reissued one, and signs in with it', async () => {
    let mark = smtp.messages.length;
    const family = await owner.post<{ id: number; emergencyAccessCode: string }>(
      '/api/recipients',
      {
        firstName: 'Tom',
        lastName: 'Hill',
        email: 'tom@example.test',
        category: 'family',
      },
    );
    codes.push(family.body.emergencyAccessCode);
    await mailTo('tom@example.test', 16, mark);
    mark = smtp.messages.length;
    const reshared = await owner.post<{ emergencyAccessCode: string }>(
      `/api/recipients/${family.body.id}/reshare-code`,
    );
    codes.push(reshared.body.emergencyAccessCode);
    const tomCode = await mailTo('tom@example.test', 16, mark);

    const tomPhone = await HttpDevice.register(server.baseUrl);
    const tomIn = await tomPhone.post('/api/login', {
      email: 'tom@example.test',
      password: tomCode,
      method: 'email_access_code',
      deviceId: tomPhone.deviceId,
    });
    expect(tomIn.status).toBe(200);
  });

  it('the password is reset by an emailed code', async () => {
    const mark = smtp.messages.length;
    const stranger = await HttpDevice.register(server.baseUrl);
    await stranger.post('/api/temporary-password-reset', { email: 'margaret@example.test' });
    const resetCode = await mailTo('margaret@example.test', 8, mark);
    const reset = await stranger.post('/api/complete-temporary-reset', {
      email: 'margaret@example.test',
      resetToken: resetCode,
      newPassword: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);
  });

  it('the next of kin breaks the glass; the code is replaced and the new one mailed', async () => {
    const mark = smtp.messages.length;
    const susan = await HttpDevice.register(server.baseUrl);
    const breakGlass = await susan.post('/api/break-glass-reset', {
      nextOfKinEmail: 'susan@example.test',
      emergencyCode: nextOfKinCode,
      newPassword: GOOD_PASSWORD,
    });
    expect(breakGlass.status).toBe(200);
    await mailTo('susan@example.test', 16, mark);
  });

  it('leaves no code from the safety flow anywhere under DATA_DIR, write-ahead log included', async () => {
    // Let the queue deliver and purge, then stop the server so every page reaches the disk.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await server.stop();

    const files = filesUnder(dataDir);
    expect(files.some((file) => file.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);
    // Five distinct codes: two emergency codes, two access codes, one reset code.
    const distinct = [...new Set(codes)];
    expect(distinct).toHaveLength(5);
    const found: string[] = [];
    for (const file of files) {
      const content = readFileSync(file).toString('latin1');
      for (const code of distinct) {
        for (const form of formsOf(code)) {
          if (content.includes(form)) found.push(`${code} in ${path.relative(dataDir, file)}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
