import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { mailQueue } from '../../src/server/db/schema';
import { buildTestApp, createPrimaryUser, TestDevice } from '../setup/app';
import { startSmtpServer } from '../setup/smtp';

const opened: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const item of opened.reverse()) await item.close();
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the mail queue', () => {
  it('writes .eml files to DATA_DIR/outbox when no SMTP server is configured', async () => {
    const t = await buildTestApp();
    opened.push(t);
    const owner = await createPrimaryUser(t);
    await (
      await TestDevice.create(t.app)
    ).post('/api/temporary-password-reset', { email: owner.user.email });

    const outbox = path.join(t.config.DATA_DIR, 'outbox');
    await waitUntil(async () => {
      try {
        return readdirSync(outbox).some((name) => name.endsWith('.eml'));
      } catch {
        return false;
      }
    });
    const [file] = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
    const raw = readFileSync(path.join(outbox, file!), 'utf8');
    expect(raw).toContain(`To: ${owner.user.email}`);
    expect(raw).toContain('Subject: Your Memento password reset code');
  });

  it('survives an SMTP failure: the request succeeds and the message is retried, then its body is deleted', async () => {
    const smtp = await startSmtpServer();
    opened.push(smtp);
    const t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
    opened.push(t);
    const owner = await createPrimaryUser(t);

    smtp.failNext(1);
    const res = await (
      await TestDevice.create(t.app)
    ).post('/api/temporary-password-reset', { email: owner.user.email });
    expect(res.statusCode).toBe(200);

    await waitUntil(async () => {
      const [row] = await t.db.select().from(mailQueue);
      return row?.lastError !== null && row?.lastError !== undefined;
    });
    const [failed] = await t.db.select().from(mailQueue);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    // Waiting for its retry, the body is sealed: no code in the table.
    expect(failed?.textBody).toMatch(/^v1\./);
    expect(failed?.textBody).not.toContain('reset code');
    expect(failed?.htmlBody).not.toContain('reset code');

    // Make the retry due now; the next mail's delivery run picks it up too.
    await t.db
      .update(mailQueue)
      .set({ nextAttemptAt: new Date() })
      .where(eq(mailQueue.id, failed!.id));
    await (
      await TestDevice.create(t.app)
    ).post('/api/temporary-password-reset', { email: 'nobody@example.test' });
    const other = await createPrimaryUser(t);
    await (
      await TestDevice.create(t.app)
    ).post('/api/temporary-password-reset', { email: other.user.email });

    const delivered = await smtp.waitFor((m) => m.to.includes(owner.user.email));
    expect(delivered.text).toContain('reset code');
    await waitUntil(async () => {
      const [row] = await t.db.select().from(mailQueue).where(eq(mailQueue.id, failed!.id));
      return row?.status === 'sent';
    });
    const [sent] = await t.db.select().from(mailQueue).where(eq(mailQueue.id, failed!.id));
    expect(sent).toMatchObject({ status: 'sent', textBody: null, htmlBody: null, attempts: 2 });
  });
});
