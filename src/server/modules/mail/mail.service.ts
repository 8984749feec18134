import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import { messageOf } from '../../db/database-errors';
import {
  claimDueMail,
  insertMail,
  markMailFailed,
  markMailSent,
  type OutgoingMail,
} from './mail.repository';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import type { MailTransport } from './mail.transport';

const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 3600_000, 24 * 3600_000];
const POLL_INTERVAL_MS = 30_000;
const BATCH_SIZE = 20;

/**
 * Mail is written to the queue in the same transaction as the change it announces, then
 * delivered after commit and retried with back-off, so an SMTP hiccup neither fails the request
 * nor loses the message. Log lines name recipient and subject, never the body.
 */
export class MailQueue {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private isRequested = false;

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport,
    private readonly options: {
      from: string;
      log: FastifyBaseLogger;
      secretBox: SecretBox;
      clock: Clock;
    },
  ) {}

  get description(): string {
    return this.transport.description;
  }

  /**
   * Bodies carry codes (emergency, access, reset), so they are stored sealed with the secret
   * box: neither the table nor the database's write-ahead log ever holds them in plain text.
   * The body is deleted once delivered.
   */
  enqueue(db: DbOrTx, mail: OutgoingMail): Promise<void> {
    // A care-home resident without an email has an address under .invalid: nobody reads it.
    if (mail.to.toLowerCase().endsWith('.invalid')) return Promise.resolve();
    const { secretBox } = this.options;
    return insertMail(db, {
      ...mail,
      text: secretBox.seal(mail.text),
      html: secretBox.seal(mail.html),
    });
  }

  private openBody(stored: string): string {
    // Rows queued before bodies were sealed are read as they are.
    return stored.startsWith('v1.') ? this.options.secretBox.open(stored) : stored;
  }

  /**
   * Sends one message now, bypassing the queue, so the admin's email tools can report a real
   * delivery failure instead of a queued promise.
   */
  async sendNow(mail: OutgoingMail): Promise<void> {
    await this.transport.send(mail, { from: this.options.from });
    this.options.log.info(
      { to: mail.to, subject: mail.subject },
      `mail delivered to ${this.transport.description}`,
    );
  }

  /** For the admin's email tools: where mail goes and who it is from. */
  get settings(): { isSandbox: boolean; destination: string; from: string } {
    const { isSandbox, destination } = this.transport;
    return { isSandbox, destination, from: this.options.from };
  }

  /** Starts a delivery run soon (after the caller's transaction has committed). */
  kick(): void {
    setImmediate(() => void this.deliverDue());
  }

  start(): void {
    this.timer = setInterval(() => void this.deliverDue(), POLL_INTERVAL_MS);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Delivers everything due; concurrent calls join the run in progress and go once more. */
  deliverDue(): Promise<void> {
    if (this.running) {
      this.isRequested = true;
      return this.running;
    }
    this.running = this.runUntilEmpty().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runUntilEmpty(): Promise<void> {
    do {
      this.isRequested = false;
      let batch;
      try {
        batch = await claimDueMail(this.db, BATCH_SIZE);
      } catch (error) {
        this.options.log.error({ err: error }, 'mail queue: could not read the queue');
        return;
      }
      for (const mail of batch) await this.deliver(mail);
      if (batch.length === BATCH_SIZE) this.isRequested = true;
    } while (this.isRequested);
  }

  private async deliver(mail: OutgoingMail & { id: number; attempts: number }): Promise<void> {
    const { log } = this.options;
    try {
      await this.transport.send(
        { ...mail, text: this.openBody(mail.text), html: this.openBody(mail.html) },
        { from: this.options.from },
      );
      await markMailSent(this.db, mail.id, this.options.clock.now());
      log.info(
        { to: mail.to, subject: mail.subject },
        `mail delivered to ${this.transport.description}`,
      );
    } catch (error) {
      const delay = RETRY_DELAYS_MS[mail.attempts - 1];
      const retryAt =
        delay === undefined ? null : new Date(this.options.clock.now().getTime() + delay);
      const message = messageOf(error);
      await markMailFailed(this.db, mail.id, { error: message.slice(0, 500), retryAt }).catch(
        () => undefined,
      );
      log.warn(
        { to: mail.to, subject: mail.subject, attempt: mail.attempts, willRetry: retryAt !== null },
        `mail delivery failed: ${message}`,
      );
    }
  }
}
