import { findPlan } from '@shared/domain/plans';
import type { TTier } from '@shared/domain/enums';

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

export function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}
