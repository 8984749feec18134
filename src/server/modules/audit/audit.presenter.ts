import { describeBrowser } from '../../lib/user-agent';

/** How a sign-in was made, in words (the stored value is a code such as 'email_access_code'). */
const METHOD_WORDS: Record<string, string> = {
  username_password: 'with username and password',
  email_access_code: 'with an access code',
  emergency_access: 'with emergency access',
};

/** One readable line from the stored details: what happened, then the browser it came from. */
export function describeDetails(details: Record<string, unknown>): string | null {
  const parts: string[] = [];
  for (const key of ['message', 'reason'] as const) {
    const value = details[key];
    if (typeof value === 'string' && value) parts.push(value);
  }
  // A message already says how ('signed in with their access code'); otherwise say it in words.
  if (typeof details.providerName === 'string' && details.providerName) {
    parts.push(`with ${details.providerName}`);
  } else if (typeof details.method === 'string' && details.method && parts.length === 0) {
    parts.push(METHOD_WORDS[details.method] ?? details.method);
  }
  if (typeof details.userAgent === 'string') {
    const browser = describeBrowser(details.userAgent);
    if (browser) parts.push(browser);
  }
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** Who caused an event, when it was not the owner: stored by the service, or read from details. */
export function describeActor(details: Record<string, unknown>): string | null {
  if (typeof details.actor === 'string' && details.actor) return details.actor;
  if (typeof details.admin === 'string' && details.admin) return `Administrator ${details.admin}`;
  const email = details.recipientEmail ?? details.nextOfKinEmail;
  if (typeof email === 'string' && email) return `Someone using ${email}`;
  return null;
}
