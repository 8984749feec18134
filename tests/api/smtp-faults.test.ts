import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailQueue } from '../../src/server/db/schema';
import { createPrimaryUser, TestDevice, useTestApp } from '../setup/app';
import { startSmtpServer, type TestSmtpServer } from '../setup/smtp';
import { TcpProxy } from '../setup/tcp-proxy';

// The SMTP server going away, or dropping its connection mid-message, never fails the request that
// queued the mail, never takes the server down, and the mail still goes once the server is back.

let smtp: TestSmtpServer;
let proxy: TcpProxy;

beforeAll(async () => {
  smtp = await startSmtpServer();
  const port = Number(new URL(smtp.url).port);
  proxy = await TcpProxy.start({ host: '127.0.0.1', port });
});
afterAll(async () => {
  await proxy.close();
  await smtp.close();
});
// The app reaches the SMTP server through the proxy, so a test can take the server away.
const t = useTestApp(() => ({
  env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}?ignoreTLS=true` },
}));

async function waitUntil(check: () => Promise<boolean>) {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A reset code asked for from a new device: the mail it queues goes to the account. */
async function askForResetCode(email: string) {
  const device = await TestDevice.create(t.app);
  return device.post('/api/temporary-password-reset', { email });
}

/** The mail queued to this address. */
async function queuedMailTo(email: string) {
  const [row] = await t.db.select().from(mailQueue).where(eq(mailQueue.toAddress, email));
  return row;
}

/** Sends a queued mail now rather than at its next attempt. */
async function deliverNow(id: number) {
  await t.db.update(mailQueue).set({ nextAttemptAt: new Date() }).where(eq(mailQueue.id, id));
  await t.app.jobs.deliverMail();
}

describe('the SMTP server going away', () => {
  it('queues the mail, keeps answering, and delivers it when the server is back', async () => {
    const { user } = await createPrimaryUser(t);
    await proxy.refuse();

    const res = await askForResetCode(user.email);
    expect(res.statusCode).toBe(200);
    await waitUntil(async () => Boolean((await queuedMailTo(user.email))?.lastError));
    const waiting = await queuedMailTo(user.email);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await proxy.restore();
    await deliverNow(waiting!.id);
    const delivered = await smtp.waitFor((mail) => mail.to.includes(user.email));
    expect(delivered.subject).toBe('Your Memento password reset code');
  });

  it('survives the connection dropped in the middle of a message', async () => {
    const { user } = await createPrimaryUser(t);
    // Drop every connection the moment the app starts talking to the SMTP server.
    const dropper = setInterval(() => proxy.cut(), 1);
    try {
      const res = await askForResetCode(user.email);
      expect(res.statusCode).toBe(200);
      await waitUntil(async () => Boolean((await queuedMailTo(user.email))?.lastError));
    } finally {
      clearInterval(dropper);
    }
    const waiting = await queuedMailTo(user.email);
    await deliverNow(waiting!.id);
    await smtp.waitFor((mail) => mail.to.includes(user.email));
  });
});
