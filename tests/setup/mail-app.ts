import { buildTestApp, type TestApp } from './app';
import { startSmtpServer, type TestSmtpServer } from './smtp';

/** The app sending its mail to a real SMTP server of its own; close() stops both. */
export async function buildMailingTestApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; smtp: TestSmtpServer; close(): Promise<void> }> {
  const smtp = await startSmtpServer();
  const t = await buildTestApp({ env: { SMTP_URL: smtp.url, ...env } });
  return {
    t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}
