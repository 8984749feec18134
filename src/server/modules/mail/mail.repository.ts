import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailQueue } from '../../db/schema';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface QueuedMail extends OutgoingMail {
  id: number;
  attempts: number;
}

export async function insertMail(db: DbOrTx, mail: OutgoingMail): Promise<void> {
  await db.insert(mailQueue).values({
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
  });
}

/**
 * Claims up to `limit` due messages. The claim pushes their next attempt into the future, so a
 * crash mid-delivery retries later, and SKIP LOCKED lets several servers share the queue.
 */
export async function claimDueMail(db: DbOrTx, limit: number): Promise<QueuedMail[]> {
  // Both drivers (PGlite and node-postgres) answer raw SQL with `{ rows }`.
  const result = (await db.execute(sql`
    update mail_queue
       set next_attempt_at = now() + interval '2 minutes', attempts = attempts + 1
     where id in (
       select id from mail_queue
        where status = 'pending' and next_attempt_at <= now()
        order by id
        limit ${limit}
        for update skip locked)
    returning id, to_address, subject, text_body, html_body, attempts`)) as unknown as {
    rows: Array<{
      id: number;
      to_address: string;
      subject: string;
      text_body: string | null;
      html_body: string | null;
      attempts: number;
    }>;
  };
  return result.rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body ?? '',
    html: row.html_body ?? '',
    attempts: row.attempts,
  }));
}

/** Delivered: the body goes, the envelope stays for the record. */
export async function markMailSent(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(mailQueue)
    .set({ status: 'sent', sentAt: now, textBody: null, htmlBody: null, lastError: null })
    .where(eq(mailQueue.id, id));
}

export async function markMailFailed(
  db: DbOrTx,
  id: number,
  options: { error: string; retryAt: Date | null },
): Promise<void> {
  await db
    .update(mailQueue)
    .set(
      options.retryAt
        ? { lastError: options.error, nextAttemptAt: options.retryAt }
        : { lastError: options.error, status: 'failed', textBody: null, htmlBody: null },
    )
    .where(eq(mailQueue.id, id));
}
