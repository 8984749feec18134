import { isHexColour } from '../../../shared/domain/contrast';
import type { OutgoingMail } from './mail.repository';

export const PRODUCT = 'Memento';

/** The button's colour when no care home's accent is given. */
const DEFAULT_ACCENT = '#0f5e63';
/** The logo's height in the header: large enough to know, small beside the words. */
const LOGO_HEIGHT_PX = 48;

/**
 * A care home's branding on mail to its residents' families: the home's name, its logo's
 * absolute address (a mail is read away from the app) and its accent, checked for 7:1 when saved.
 */
export interface MailBrand {
  name: string;
  logoUrl: string | null;
  accentHex: string | null;
}

interface MailParts {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** A code shown large, on its own line. */
  code?: string;
  action?: { label: string; url: string };
  closing?: string;
  /** Mail to a care-home resident's family carries the home's branding. */
  brand?: MailBrand | undefined;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The top of the mail: the home's logo, name and 'Powered by Memento', or Memento's name alone. */
function headerHtml(brand: MailBrand | undefined, accent: string): string {
  if (!brand) {
    return `<p style="margin:0 0 24px;font-weight:700;color:${DEFAULT_ACCENT}">${PRODUCT}</p>`;
  }
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="${LOGO_HEIGHT_PX}" style="display:block;height:${LOGO_HEIGHT_PX}px;width:auto;max-width:100%;object-fit:contain;object-position:left center;border:0;margin:0 0 12px">`
    : '';
  return `<div style="margin:0 0 24px;padding:0 0 16px;border-bottom:1px solid #e4ddd3">${logo}<p style="margin:0;font-size:22px;line-height:1.3;font-weight:700;color:${accent}">${escapeHtml(brand.name)}</p><p style="margin:4px 0 0;font-size:18px;color:#3e4c59">Powered by ${PRODUCT}</p></div>`;
}

/** Plain text and simple HTML with the same words. */
export function render(parts: MailParts): OutgoingMail {
  const { brand } = parts;
  // Checked when the home saved it; checked again here, as it goes into a style attribute.
  const accent =
    brand?.accentHex && isHexColour(brand.accentHex) ? brand.accentHex : DEFAULT_ACCENT;
  const closing = parts.closing ?? `With care,\nThe ${PRODUCT} team`;
  const text = [
    ...(brand ? [`${brand.name}\nPowered by ${PRODUCT}`] : []),
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
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="display:inline-block;background:${accent};color:#fff;padding:14px 22px;border-radius:10px;text-decoration:none;font-weight:600">${escapeHtml(parts.action.label)}</a></p>`
    : '';
  // Narrow margins: on a phone the words keep most of the width.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head><body style="margin:0;padding:16px 12px;background:#faf7f2;font-family:system-ui,sans-serif;font-size:18px;line-height:1.6;color:#1f2933"><div style="max-width:560px;margin:0 auto;background:#fff;border-radius:16px;padding:28px 24px">${headerHtml(brand, accent)}<p style="margin:0 0 16px">${escapeHtml(parts.greeting)}</p>${paragraphHtml}${action}<p style="margin:24px 0 0;white-space:pre-line">${escapeHtml(closing)}</p></div></body></html>`;

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
