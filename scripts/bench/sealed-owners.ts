// The owners of the sealed-against-plain benchmark: each signs up in a browser of their own with
// the requests the app sends, is put on a paid plan (the embedded database is written while the
// server is stopped, as tests/e2e/support/own-server.ts does), and one turns enhanced encryption on
// through the /encryption page as a person does.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openPgliteDirectory } from '../../src/server/db/client';
import { stopServer } from '../bench-support';

export const PASSWORD = 'Tulips&Tea-2026';

export interface TOwner {
  username: string;
  userId: number;
  recipientId: number;
}

/** Registers and onboards an owner from inside the page, so the browser holds the session. */
export async function signUpInPage(page: Page, base: string, username: string): Promise<TOwner> {
  await page.goto(`${base}/auth`);
  await page.waitForFunction(() => localStorage.getItem('deviceId') !== null);
  const ids = await page.evaluate(
    async ({ username, password }) => {
      const headers = {
        'Content-Type': 'application/json',
        'X-Device-ID': localStorage.getItem('deviceId') ?? '',
      };
      const post = async (url: string, body: unknown) => {
        const response = await fetch(url, {
          method: 'POST',
          credentials: 'include',
          headers,
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
        return response.json() as Promise<Record<string, unknown>>;
      };
      // What src/web/lib/fingerprint.ts sends.
      const fingerprint = [
        navigator.userAgent,
        `${screen.width}x${screen.height}`,
        String(screen.colorDepth),
        navigator.language,
        String(new Date().getTimezoneOffset()),
        navigator.platform,
      ].join('|');
      await post('/api/register', {
        firstName: 'Bench',
        lastName: 'Owner',
        email: `${username}@example.test`,
        username,
        password,
        category: 'primary',
        createdById: null,
        tosAccepted: true,
        tosAcceptedAt: new Date().toISOString(),
        deviceId: localStorage.getItem('deviceId'),
        fingerprint,
      });
      const kin = await post('/api/recipients', {
        firstName: 'Susan',
        lastName: 'Hill',
        email: `${username}-kin@example.test`,
        phoneNumber: '+44 7700 900123',
        relationship: 'Daughter',
        category: 'next_of_kin',
      });
      await post('/api/user/complete-onboarding', {});
      const user = (await (await fetch('/api/user', { headers })).json()) as { id: number };
      return { userId: user.id, recipientId: Number(kin.id) };
    },
    { username, password: PASSWORD },
  );
  return { username, ...ids };
}

/** Puts the owners on the Premium plan: the server stops, the database is written, it starts. */
export async function makePremium(
  server: ChildProcess,
  dataDir: string,
  usernames: string[],
  start: () => Promise<ChildProcess>,
): Promise<ChildProcess> {
  await stopServer(server);
  const client = await openPgliteDirectory(path.join(dataDir, 'pgdata'));
  try {
    await client.query(
      `update users set subscription_tier = 'premium' where username = any($1::text[])`,
      [usernames],
    );
  } finally {
    await client.close();
  }
  return start();
}

/** The dashboard, once it greets the owner and shows their cloud library. */
export async function openDashboard(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/`);
  await page
    .getByRole('heading', { name: 'Your messages in the cloud' })
    .waitFor({ timeout: 60_000 });
}

/** Turns enhanced encryption on through /encryption, keeping the recovery sheet as asked. */
export async function turnOnEncryption(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/encryption`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Your password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Turn on enhanced encryption' }).click();
  await page
    .getByRole('checkbox', { name: 'I have printed or written down my recovery sheet' })
    .check({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByText('This device can open and send your sealed messages.').waitFor();
}
