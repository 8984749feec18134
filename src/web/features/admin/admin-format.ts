import { findPlan } from '@shared/domain/plans';
import type { TSubscriptionStatus, TTier, TUserCategory } from '@shared/domain/enums';
import type { TAdminUser } from '@shared/schemas/admin';
import { formatBillingDate } from '@web/lib/billing-wording';
import { lazyDateFormat } from '@web/lib/date-format';

/** The plan's own name ('Community Edition', 'Premium' …), as on the features page. */
export function describeTier(tier: TTier): string {
  return findPlan(tier).name;
}

const dateTimeFormat = lazyDateFormat(undefined, {
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

/** A recipient's username is internal and never typed, so they go by their name. */
export function describeUser(user: TAdminUser): string {
  return isRecipientAccount(user) ? fullName(user) || user.email : user.username;
}

export function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}

const STATUS_LABELS: Record<TSubscriptionStatus, string> = {
  none: 'No subscription',
  active: 'Active',
  cancelled: 'Cancelled',
  past_due: 'Payment failed',
};

/** One line on billing for the admin's user card: what is paid for, its state and its date. */
export function describeBilling(user: TAdminUser): string | null {
  const status = STATUS_LABELS[user.subscriptionStatus] as string | undefined;
  if (!status) return null;
  if (user.subscriptionStatus === 'none' && !user.billedTier) return 'No subscription';
  const parts = [user.billedTier ? describeTier(user.billedTier) : null, status];
  const periodEnd = user.currentPeriodEnd && formatBillingDate(user.currentPeriodEnd);
  const graceEnd = user.graceEndsAt && formatBillingDate(user.graceEndsAt);
  if (user.subscriptionStatus === 'past_due' && graceEnd) parts.push(`plan kept until ${graceEnd}`);
  else if (user.cancelAtPeriodEnd && periodEnd) parts.push(`ends on ${periodEnd}`);
  else if (user.subscriptionStatus === 'active' && periodEnd) parts.push(`renews on ${periodEnd}`);
  return parts.filter(Boolean).join(' · ');
}
