import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SentMessageInfo, Transporter } from 'nodemailer';
import type { TConfig } from '../../config';
import type { Clock } from '../../lib/clock';
import type { OutgoingMail } from './mail.repository';

export interface MailTransport {
  /** Where mail goes, for the log and the admin's email tools. */
  readonly description: string;
  /** Mail goes to the outbox folder rather than out (sandbox mode: nothing leaves the machine). */
  readonly isSandbox: boolean;
  /** Where mail ends up: the outbox folder's path, or the SMTP server's host. */
  readonly destination: string;
  send(mail: OutgoingMail, options: { from: string }): Promise<void>;
}

type TransportOptions = Parameters<typeof import('nodemailer').createTransport>[0];

/**
 * Sends a message through a nodemailer transport made on the first message, so a server that
 * sends no mail does not carry nodemailer in memory.
 */
function lazySender(
  options: TransportOptions,
): (mail: OutgoingMail, from: string) => Promise<SentMessageInfo> {
  let transporter: Promise<Transporter> | undefined;
  return async (mail, from) => {
    transporter ??= import('nodemailer').then((nodemailer) =>
      nodemailer.default.createTransport(options),
    );
    const { to, subject, text, html } = mail;
    return (await transporter).sendMail({ from, to, subject, text, html });
  };
}

/** 'Sandbox mode': every message is written as an .eml file under DATA_DIR/outbox. */
function createOutboxTransport(outboxDir: string, clock: Clock): MailTransport {
  const compose = lazySender({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `outbox folder ${outboxDir}`,
    isSandbox: true,
    destination: outboxDir,
    async send(mail, { from }) {
      const info = await compose(mail, from);
      await mkdir(outboxDir, { recursive: true });
      const stamp = clock.now().toISOString().replace(/[:.]/g, '-');
      const safeTo = mail.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(outboxDir, `${stamp}-${safeTo}.eml`);
      // Written whole, then renamed, so a reader never sees half a message.
      await writeFile(`${file}.partial`, info.message as Buffer, { mode: 0o600 });
      await rename(`${file}.partial`, file);
    },
  };
}

function createSmtpTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  const sendOut = lazySender({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
    // A server that stops answering must not hold the queue for minutes; the queue retries.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
  });
  return {
    description: `SMTP server ${url.hostname}`,
    isSandbox: false,
    destination: url.hostname,
    async send(mail, { from }) {
      await sendOut(mail, from);
    },
  };
}

export function createMailTransport(
  config: Pick<TConfig, 'SMTP_URL' | 'DATA_DIR'>,
  clock: Clock,
): MailTransport {
  return config.SMTP_URL
    ? createSmtpTransport(config.SMTP_URL)
    : createOutboxTransport(path.resolve(config.DATA_DIR, 'outbox'), clock);
}
