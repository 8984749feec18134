import { z } from 'zod';
import { singleLineText, zIdFromText } from './common';

/** What went wrong, as a home would put it. */
export const SUPPORT_CATEGORIES = [
  'cannot_record',
  'family_cannot_sign_in',
  'billing',
  'data_protection',
  'other',
] as const;
export type TSupportCategory = (typeof SUPPORT_CATEGORIES)[number];

export const SUPPORT_CATEGORY_LABELS: Record<TSupportCategory, string> = {
  cannot_record: 'A resident cannot record',
  family_cannot_sign_in: 'A family cannot sign in',
  billing: 'Billing',
  data_protection: 'A data-protection request',
  other: 'Something else',
};

export const SUPPORT_URGENCIES = ['urgent', 'normal'] as const;
export type TSupportUrgency = (typeof SUPPORT_URGENCIES)[number];

export const SUPPORT_URGENCY_LABELS: Record<TSupportUrgency, string> = {
  urgent: 'Urgent: no resident can record, or data may have reached the wrong person',
  normal: 'Normal',
};

export const SUPPORT_STATUSES = ['received', 'answered'] as const;
export type TSupportStatus = (typeof SUPPORT_STATUSES)[number];

/**
 * First-response targets in working hours (Monday to Friday, 09:00 to 17:00, UK time, except
 * England and Wales bank holidays).
 * Professional homes get the priority targets; a home on another plan, best effort.
 */
export const SUPPORT_TARGET_HOURS = {
  priority: { urgent: 4, normal: 8 },
  standard: { urgent: 24, normal: 24 },
} as const;

export const SUPPORT_TARGET_WORDS = {
  priority: {
    urgent: 'We reply within 4 working hours.',
    normal: 'We reply within 1 working day.',
  },
  standard: {
    urgent: 'We reply within 3 working days (best effort).',
    normal: 'We reply within 3 working days (best effort).',
  },
} as const;

export const SUPPORT_DATA_PROTECTION_NOTE =
  'The law gives one month to answer a data-protection request; we will help you meet it.';

export const SUPPORT_DESCRIPTION_MAX = 4000;

export const SUPPORT_MESSAGES = {
  noHome: 'Support requests are for a care home’s manager and staff.',
  notFound: 'We could not find this support request.',
  sent: 'Your request has been sent. We will answer by email.',
} as const;

/** What the browser can tell about itself; never a video, a title or a recipient. */
export const ZSupportDiagnostics = z.strictObject(
  {
    browser: singleLineText(300).optional(),
    appVersion: singleLineText(40).optional(),
    deviceCount: z.number().int().min(0).max(10_000).optional(),
    storageUsedBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  },
  { error: 'Diagnostics may only hold the browser, app version, device count and storage use.' },
);
export type TSupportDiagnostics = z.infer<typeof ZSupportDiagnostics>;

export const ZSupportRequestBody = z.object({
  category: z.enum(SUPPORT_CATEGORIES, { error: 'Please choose what the problem is about' }),
  urgency: z.enum(SUPPORT_URGENCIES, { error: 'Please choose how urgent it is' }),
  description: z
    .string({ error: 'Please say what is wrong' })
    .trim()
    .min(10, 'Please say what is wrong in a few words (at least 10 characters)')
    .max(SUPPORT_DESCRIPTION_MAX, `Please keep it under ${SUPPORT_DESCRIPTION_MAX} characters`),
  diagnostics: ZSupportDiagnostics.optional(),
});
export type TSupportRequestBody = z.output<typeof ZSupportRequestBody>;

export const ZSupportIdParams = z.object({ id: zIdFromText(SUPPORT_MESSAGES.notFound) });

/** What the home sees of its own requests. */
export interface TSupportRequest {
  id: number;
  category: TSupportCategory;
  urgency: TSupportUrgency;
  description: string;
  status: TSupportStatus;
  createdAt: string;
  dueAt: string;
  answeredAt: string | null;
  target: string;
  requesterName: string;
}

export interface TSupportAnswer {
  isPriority: boolean;
  targets: { urgent: string; normal: string };
  requests: TSupportRequest[];
}

/** What the operators see in the admin's Support tab. */
export interface TAdminSupportRequest extends TSupportRequest {
  homeName: string;
  homeSlug: string;
  isPriority: boolean;
  requesterEmail: string;
  diagnostics: TSupportDiagnostics | null;
}
