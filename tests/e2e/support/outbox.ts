import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The shared test server's outbox, or that of a server of the test's own (`dataDir`). */
function outboxDir(ownDataDir?: string): string {
  const dataDir = ownDataDir ?? process.env.E2E_DATA_DIR;
  if (!dataDir)
    throw new Error('E2E_DATA_DIR is not set: run the browser tests with playwright.config.ts');
  return path.join(dataDir, 'outbox');
}

/**
 * Every message the server has written for `to` (sandbox mode: one .eml file per message, named
 * `<ISO time>-<address>.eml`), oldest first.
 */
export async function readMailTo(to: string, dataDir?: string): Promise<OutboxMail[]> {
  const suffix = `-${to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`;
  const names = await readdir(outboxDir(dataDir)).catch(() => [] as string[]);
  const files = names.filter((name) => name.endsWith(suffix)).sort();
  return Promise.all(
    files.map(async (file) => {
      const parsed = await PostalMime.parse(await readFile(path.join(outboxDir(dataDir), file)));
      return {
        file,
        to,
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        html: parsed.html ?? '',
      };
    }),
  );
}

/** Waits for the newest message to `to` whose subject matches, e.g. after the mail queue runs. */
export async function waitForMail(
  to: string,
  subject: RegExp,
  options: { count?: number; timeoutMs?: number; dataDir?: string } = {},
): Promise<OutboxMail> {
  const { count = 1, timeoutMs = 15_000 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const matching = (await readMailTo(to, options.dataDir)).filter((mail) =>
      subject.test(mail.subject),
    );
    const newest = matching.at(-1);
    if (newest && matching.length >= count) return newest;
    if (Date.now() > deadline) {
      throw new Error(
        `No mail to ${to} with subject ${subject} (wanted ${count}, found ${matching.length})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The code a message shows on its own indented line (the server's mail templates). */
export function readCode(mail: OutboxMail): string {
  const match = /^ {4}([A-Z2-9]{4}(?:-[A-Z2-9]{4})+)$/m.exec(mail.text);
  if (!match?.[1]) throw new Error(`No code in "${mail.subject}":\n${mail.text}`);
  return match[1];
}

/** The first link in the message that starts with `prefix`. */
export function readLink(mail: OutboxMail, prefix: string): string {
  const found = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`No link starting ${prefix} in "${mail.subject}"`);
  return found;
}
