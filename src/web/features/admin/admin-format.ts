import { findPlan } from '@shared/domain/plans';
import type { TTier, TUserCategory } from '@shared/domain/enums';
import type { TAdminUser } from '@shared/schemas/admin';

/** The plan's own name ('Community Edition', 'Premium' …), as on the features page. */
export function describeTier(tier: TTier): string {
  return findPlan(tier).name;
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** A date and time in the viewer's own time zone; a dash-free fallback for nothing. */
export function formatDateTime(timestamp: string | null, whenMissing = 'Never'): string {
  if (!timestamp) return whenMissing;
  const when = new Date(timestamp);
  return Number.isNaN(when.getTime()) ? timestamp : dateTimeFormat.format(when);
}

const RECIPIENT_CATEGORIES: ReadonlySet<TUserCategory> = new Set([
  'next_of_kin',
  'family',
  'friend',
]);

export function isRecipientAccount(user: { category: TUserCategory }): boolean {
  return RECIPIENT_CATEGORIES.has(user.category);
}

/** D22: a recipient's username is internal and never typed, so they go by their name. */
export function describeUser(user: TAdminUser): string {
  return isRecipientAccount(user) ? fullName(user) || user.email : user.username;
}

export function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}
