import type { TNextOfKinLegacy, TWaitingMessage } from './legacy';
import { z } from 'zod';
import { ZEmail, requiredText, singleLineText, zIdFromText } from './common';
import { RECIPIENT_CATEGORIES, type TRecipientCategory } from '../domain/enums';
import { ZSealedCard, type TRecipientKeyForOwner } from './encryption';

export { RECIPIENT_CATEGORIES, type TRecipientCategory };

/** POST /api/recipients. At onboarding the next of kin also gives phone and relationship. */
export const ZCreateRecipientBody = z
  .object({
    firstName: requiredText('First name is required'),
    lastName: requiredText('Last name is required'),
    email: ZEmail,
    category: z.enum(RECIPIENT_CATEGORIES, { error: 'Please select a category' }),
    phoneNumber: z
      .string()
      .trim()
      .max(40, 'Phone number is too long')
      .regex(/^[+()\d\s.-]*$/, 'Please enter a valid phone number')
      .optional(),
    relationship: singleLineText(60, 'Relationship is too long').optional(),
    /** Ignored: the creator always comes from the session, never from the body. */
    createdById: z.unknown().optional(),
    /**
     * Required once enhanced encryption is on (409 cardRequired without it), refused before (400
     * cardNotOn): the recipient's card, made in the owner's browser.
     */
    sealedCard: ZSealedCard.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.category !== 'next_of_kin') return;
    if (!body.phoneNumber)
      ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: 'Phone number is required' });
    if (!body.relationship)
      ctx.addIssue({ code: 'custom', path: ['relationship'], message: 'Relationship is required' });
  });
export type TCreateRecipientBody = z.input<typeof ZCreateRecipientBody>;

export interface TRecipientCreated {
  id: number;
  category: TRecipientCategory;
  firstName: string;
  lastName: string;
  email: string;
  /**
   * Shown once; only its hash is stored. Null for a sealed card: the owner's browser made the code
   * and the server never saw it.
   */
  emergencyAccessCode: string | null;
}

/** One card on the Recipients page: GET /api/recipients. */
export interface TRecipient {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  category: TRecipientCategory;
  phoneNumber: string | null;
  relationship: string | null;
  /** Videos for this recipient in the server's index (all of the owner's devices). */
  videoCount: number;
  createdAt: string;
  /**
   * The recipient's sealed card, opened with the account key; null while they have none. Always
   * sent by GET /api/recipients (optional only for recipients a page holds from before cards).
   */
  sealedKey?: TRecipientKeyForOwner | null;
}

/** GET /api/recipients also tells the page what the owner's plan allows. */
export interface TRecipientList {
  recipients: TRecipient[];
  /** Recipients besides the next of kin the plan allows; null means unlimited. */
  maxRecipients: number | null;
  maxRecordingSeconds: number;
  showsHouseBanner: boolean;
}

/**
 * POST /api/recipients/{id}/reshare-code: codes are stored hashed, so this is a new code, shown
 * once and also emailed.
 */
export interface TReshareCode {
  id: number;
  firstName: string;
  lastName: string;
  category: TRecipientCategory;
  emergencyAccessCode: string;
}

/** DELETE /api/recipients/{id}: what went with the recipient, so the owner sees it. */
export interface TRecipientDeleted {
  id: number;
  deletedVideoIds: string[];
}

export const ZRecipientIdParams = z.object({
  id: zIdFromText('Recipient not found'),
});

/** GET /api/prompts?recipientId= */
export const ZPromptsQuery = z.object({
  recipientId: zIdFromText('Please choose a recipient'),
});

export interface TPrompt {
  id: string;
  category: TRecipientCategory;
  title: string;
  description: string;
}

/** What a signed-in recipient sees on their home view. */
export interface TRecipientHome {
  owner: { firstName: string; lastName: string };
  category: TRecipientCategory;
  /** Tier of the owner decides whether messages can reach this recipient's devices at all. */
  ownerHasCloudSync: boolean;
  /** Messages shared with this recipient through the cloud (none for Community Edition). */
  sharedVideos: { id: string; title: string | null; createdAt: string; durationMs: number }[];
  /** Messages not open yet, listed only where the owner lets recipients know. */
  waitingMessages: TWaitingMessage[];
  /** For the next of kin: where a legacy release stands; null for other recipients. */
  legacy: TNextOfKinLegacy | null;
}

export { RECIPIENT_CATEGORY_LABELS } from '../domain/recipient-labels';

const EMAIL_EXAMPLE = 'name@example.com';

/** The Add Recipient dialog: the server's rules with the form's own wording. */
export const ZAddRecipientForm = z
  .object({
    firstName: requiredText('First name is required'),
    lastName: requiredText('Last name is required'),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .min(1, 'Email is required')
      .max(254, 'Email address is too long')
      .pipe(z.email({ error: `Please enter a valid email address (e.g., ${EMAIL_EXAMPLE})` })),
    category: z.enum(RECIPIENT_CATEGORIES, { error: 'Please select a category' }),
    phoneNumber: z
      .string()
      .trim()
      .max(40, 'Phone number is too long')
      .regex(/^[+()\d\s.-]*$/, 'Please enter a valid phone number'),
    relationship: singleLineText(60, 'Relationship is too long'),
  })
  .superRefine((form, ctx) => {
    if (form.category !== 'next_of_kin') return;
    if (!form.phoneNumber)
      ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: 'Phone number is required' });
    if (!form.relationship)
      ctx.addIssue({ code: 'custom', path: ['relationship'], message: 'Relationship is required' });
  });
export type TAddRecipientForm = z.input<typeof ZAddRecipientForm>;
