import { z } from 'zod';
import {
  ACCENT_MIN_CONTRAST,
  accentContrast,
  isAccentReadable,
  isHexColour,
  suggestReadableAccent,
} from '../domain/contrast';
import { requiredText, zIdFromText } from './common';

/** A resident's consent to take part: their own, their attorney's, or a best-interests decision. */
export const CONSENT_BASES = ['resident', 'attorney', 'best_interests'] as const;
export type TConsentBasis = (typeof CONSENT_BASES)[number];

export const RESIDENT_STATUSES = ['active', 'left', 'died'] as const;
export type TResidentStatus = (typeof RESIDENT_STATUSES)[number];

/** A logo is a PNG or a JPEG, checked by its first bytes; never SVG, which can carry script. */
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type TLogoType = (typeof LOGO_TYPES)[number];
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_MAX_PIXELS = 1024;

export const IMPORT_MAX_ROWS = 200;
export const IMPORT_MAX_BYTES = 256 * 1024;
/** The columns a residents file has, in any order; the last two may be left out. */
export const IMPORT_COLUMNS = [
  'first_name',
  'last_name',
  'room',
  'nok_first_name',
  'nok_last_name',
  'nok_email',
  'nok_relationship',
  'consent_basis',
  'attorney_name',
] as const;
export const IMPORT_REQUIRED_COLUMNS = IMPORT_COLUMNS.slice(0, 6);

/** A staff invitation works this long, once. */
export const STAFF_INVITE_DAYS = 7;

export const CONSENT_LABELS: Record<TConsentBasis, string> = {
  resident: 'The resident agreed',
  attorney: 'Their attorney agreed',
  best_interests: 'Best-interests decision',
};

export const CARE_HOME_MESSAGES = {
  planRequired:
    'Care-home tools are part of the Professional plan and its 30-day free trial. Please choose Professional on the plans page first.',
  noHome: 'Please set up your care home first.',
  statusUnchanged: 'This resident’s record already says that.',
  diedIsFinal:
    'A death, once recorded, cannot be changed here. If it was recorded by mistake, please ask Memento support.',
  noLetters:
    'There are no letters to print: every family chosen has joined already, or has no next of kin with a code Memento can make.',
  notFound: 'There is no such person in your care home.',
  inviteNotValid:
    'This invitation does not work. It may have been used, withdrawn or be more than 7 days old. Please ask your manager for a new one.',
  ownHome: 'You manage this care home already, so you do not need an invitation to it.',
  staffDisabled: 'This staff member has been disabled.',
  logoType: 'Please choose a PNG or JPEG picture. Other kinds of file cannot be used as a logo.',
  logoTooLarge: `The logo must be at most ${LOGO_MAX_BYTES / 1024} KB. Please choose a smaller picture.`,
  logoTooManyPixels: `The logo must be at most ${LOGO_MAX_PIXELS} × ${LOGO_MAX_PIXELS} pixels. Please choose a smaller picture.`,
  importTooLarge: `This file is larger than ${IMPORT_MAX_BYTES / 1024} KB. Please split it into files of at most ${IMPORT_MAX_ROWS} residents each.`,
  importTooManyRows: `This file has more than ${IMPORT_MAX_ROWS} residents. Please split it into files of at most ${IMPORT_MAX_ROWS} residents each.`,
  importEmpty:
    'This file has no residents in it. The first line names the columns; each line after it is one resident.',
  slugTaken:
    'Another care home already uses this name. Please add your town, for example “Rosewood House, Leeds”.',
} as const;

/** The message for an accent colour that is too light, naming a darker shade that passes. */
export function accentTooLightMessage(hex: string): string {
  const ratio = accentContrast(hex).toFixed(1);
  return `This colour is too light to read on Memento's screens (${ratio}:1; it needs ${ACCENT_MIN_CONTRAST}:1). Try ${suggestReadableAccent(hex)}, a darker shade of it.`;
}

export const ZAccentHex = z
  .string({ error: 'Please choose a colour like #0f5e5a' })
  .trim()
  .toLowerCase()
  .refine(isHexColour, { message: 'Please choose a colour like #0f5e5a' })
  .superRefine((hex, ctx) => {
    if (isHexColour(hex) && !isAccentReadable(hex)) {
      ctx.addIssue({ code: 'custom', message: accentTooLightMessage(hex) });
    }
  });

/** PUT /api/care-home: the home's name and colour. */
export const ZCareHomeBody = z.object({
  name: requiredText('Please enter the care home’s name', 60),
  accentHex: ZAccentHex.nullable().optional(),
});
export type TCareHomeBody = z.input<typeof ZCareHomeBody>;

export interface TCareHome {
  id: number;
  name: string;
  slug: string;
  accentHex: string | null;
  /** Where the logo is served, changing when it changes; null without one. */
  logoUrl: string | null;
}

/** GET /api/care-home: the manager's home, and whether their plan lets them have one. */
export interface TCareHomeAnswer {
  home: TCareHome | null;
  hasPlan: boolean;
}

export const ZInviteStaffBody = z.object({
  firstName: requiredText('Please enter their first name', 60),
  lastName: requiredText('Please enter their last name', 60),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .toLowerCase()
    .min(1, 'Email is required')
    .max(254, 'Email address is too long')
    .pipe(z.email({ error: 'Please enter a valid email address' })),
});
export type TInviteStaffBody = z.input<typeof ZInviteStaffBody>;

export const ZAcceptInviteBody = z.object({
  token: z
    .string({ error: CARE_HOME_MESSAGES.inviteNotValid })
    .min(16, CARE_HOME_MESSAGES.inviteNotValid)
    .max(128, CARE_HOME_MESSAGES.inviteNotValid),
});

export const ZCareHomeIdParams = z.object({
  id: zIdFromText(CARE_HOME_MESSAGES.notFound),
});

export interface TStaffMember {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  state: 'invited' | 'invite_expired' | 'active' | 'disabled';
  invitedAt: string;
}

export const ZImportBody = z.object({
  csv: z
    .string({ error: 'Please choose a CSV file' })
    .refine((csv) => new TextEncoder().encode(csv).length <= IMPORT_MAX_BYTES, {
      message: CARE_HOME_MESSAGES.importTooLarge,
    }),
  /** Check every row and say what would happen, writing nothing. */
  dryRun: z.boolean({ error: 'dryRun must be true or false' }),
});
export type TImportBody = z.input<typeof ZImportBody>;

/** One line of the file: ready to import, already in the home, or what is wrong with it. */
export interface TImportRow {
  /** The line in the file (the header is line 1). */
  line: number;
  name: string;
  room: string;
  state: 'ready' | 'imported' | 'exists' | 'invalid';
  errors: string[];
}

export interface TImportResult {
  dryRun: boolean;
  rows: TImportRow[];
  counts: { ready: number; imported: number; exists: number; invalid: number };
}

/** One row of the progress table: numbers and dates, never a message's title or address. */
export interface TResidentProgress {
  id: number;
  firstName: string;
  lastName: string;
  room: string;
  status: TResidentStatus;
  consentBasis: TConsentBasis | null;
  nextOfKin: { name: string; maskedEmail: string } | null;
  family: { joined: number; total: number };
  messages: { recorded: number; sent: number };
  lastSessionAt: string | null;
  addedAt: string;
  needsHelp: string[];
  /** Paused by the resident, a carer or the manager: not offered at the stations. */
  paused: boolean;
  /** When the resident left or died (or came back); null while nothing changed. */
  statusChangedAt: string | null;
}

/** PUT /api/care-home/residents/:id/status: left the home, back again, or died. */
export const ZResidentStatusBody = z.object({
  status: z.enum(RESIDENT_STATUSES, { error: 'Please choose left, back or died' }),
});

export const ZConsentBody = z
  .object({
    consentBasis: z
      .enum(CONSENT_BASES, { error: 'Please choose how consent was given' })
      .nullable(),
    attorneyName: requiredText('Please enter the attorney’s name', 80).nullable().optional(),
  })
  .refine((body) => body.consentBasis !== 'attorney' || Boolean(body.attorneyName), {
    message: 'Please enter the attorney’s name',
    path: ['attorneyName'],
  });
export type TConsentBody = z.input<typeof ZConsentBody>;

/** The plans that run a care home: Professional (its 30-day trial grants it too). */
export function isCareHomePlan(tier: string): boolean {
  return tier === 'professional';
}

/** How long a code printed on an invitation letter works if nobody signs in with it. */
export const LETTER_CODE_DAYS = 30;

/**
 * POST /api/care-home/letters: letters for the residents named (the progress table's ids), or
 * for every resident whose family has not joined yet.
 */
export const ZLettersBody = z.object({
  residentIds: z
    .array(z.number().int().positive(), { error: 'Please choose the residents' })
    .max(200, 'Please choose at most 200 residents at a time')
    .optional(),
});
export type TLettersBody = z.input<typeof ZLettersBody>;

/**
 * One family's invitation letter: their new code, shown once here and printed, never emailed;
 * the family's email only masked, as everywhere the home looks.
 */
export interface TInvitationLetter {
  residentId: number;
  residentName: string;
  room: string;
  nextOfKinName: string;
  maskedEmail: string;
  code: string;
  expiresAt: string;
}

export interface TLetters {
  home: TCareHome;
  letters: TInvitationLetter[];
}

/**
 * GET /api/care-home/mine: the home a resident lives at, from their own account, and whether
 * Memento is paused for them at its stations; `home` is null for anyone who is not a resident.
 */
export interface TMyCareHome {
  home: TCareHome | null;
  paused: boolean;
}
