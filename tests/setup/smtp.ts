import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's sender (MAIL FROM) and the message's From header. */
  from: { envelope: string; header: string };
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on a random port that keeps every message it is sent. */
export async function startSmtpServer() {
  const messages: ReceivedMail[] = [];
  let rejectNext = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (rejectNext > 0) {
          rejectNext -= 1;
          callback(
            Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }),
          );
          return;
        }
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          from: {
            envelope: mailFrom ? mailFrom.address : '',
            header: parsed.from ? `${parsed.from.name} <${parsed.from.address}>` : '',
          },
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: parsed.html ?? '',
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    messages,
    /** The next `count` deliveries fail with a temporary error. */
    failNext(count: number) {
      rejectNext = count;
    },
    async waitFor(
      predicate: (mail: ReceivedMail) => boolean,
      timeoutMs = 5000,
    ): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `no matching mail; received: ${messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join(' | ') || 'none'}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** The first code found in a mail, in the app's code format (16 or 8 characters in fours). */
export function extractCode(mail: ReceivedMail, length: 16 | 8): string {
  const pattern =
    length === 16
      ? /\b[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}\b/
      : /\b[A-Z2-9]{4}-[A-Z2-9]{4}\b(?!-)/;
  const match = mail.text.match(pattern);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[0];
}
