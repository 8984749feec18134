import type { OutgoingMail } from './mail.repository';

export const PRODUCT = 'Memento';

interface MailParts {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** A code shown large, on its own line. */
  code?: string;
  action?: { label: string; url: string };
  closing?: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Plain text and simple HTML with the same words. */
export function render(parts: MailParts): OutgoingMail {
  const closing = parts.closing ?? `With care,\nThe ${PRODUCT} team`;
  const text = [
    parts.greeting,
    ...parts.paragraphs.flatMap((paragraph, index) =>
      index === 0 && parts.code ? [paragraph, `    ${parts.code}`] : [paragraph],
    ),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`] : []),
    closing,
  ].join('\n\n');

  const paragraphHtml = parts.paragraphs
    .map((paragraph, index) => {
      const p = `<p style="margin:0 0 16px">${escapeHtml(paragraph)}</p>`;
      const code = parts.code
        ? `<p style="margin:0 0 16px;font-size:26px;font-weight:700;letter-spacing:2px;font-family:monospace">${escapeHtml(parts.code)}</p>`
        : '';
      return index === 0 ? p + code : p;
    })
    .join('');
  const action = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="background:#0f5e63;color:#fff;padding:14px 22px;border-radius:10px;text-decoration:none;font-weight:600">${escapeHtml(parts.action.label)}</a></p>`
    : '';
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#faf7f2;font-family:system-ui,sans-serif;font-size:18px;line-height:1.6;color:#1f2933"><div style="max-width:560px;margin:0 auto;background:#fff;border-radius:16px;padding:32px"><p style="margin:0 0 24px;font-weight:700;color:#0f5e63">${PRODUCT}</p><p style="margin:0 0 16px">${escapeHtml(parts.greeting)}</p>${paragraphHtml}${action}<p style="margin:24px 0 0;white-space:pre-line">${escapeHtml(closing)}</p></div></body></html>`;

  return { to: parts.to, subject: parts.subject, text, html };
}

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
}

/** A mail to one person, greeted by their first name. */
export function renderFor(person: Person, parts: Omit<MailParts, 'to' | 'greeting'>): OutgoingMail {
  return render({ ...parts, to: person.email, greeting: `Dear ${person.firstName},` });
}

/** The button back to the app that a notice ends with. */
export const openAppAction = (appUrl: string) => ({ label: `Open ${PRODUCT}`, url: appUrl });

export const fullName = (person: Pick<Person, 'firstName' | 'lastName'>) =>
  `${person.firstName} ${person.lastName}`;
