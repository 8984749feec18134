import { z } from 'zod';
import {
  LEGACY_MESSAGES,
  LEGACY_WAITING_DAYS,
  RELEASE_RULES,
  type TInactivityMonths,
  type TRelease,
} from '../domain/legacy';
import { ENCRYPTION_MESSAGES, ZCodeProof } from './encryption';

/** A message's release rule as the owner sets it; a date must lie ahead. */
export const ZRelease = z
  .object({
    rule: z.enum(RELEASE_RULES, { error: 'Please choose when they can watch' }),
    at: z.iso.datetime({ error: LEGACY_MESSAGES.chooseDate }).nullable().default(null),
  })
  .superRefine((release, ctx) => {
    if (release.rule !== 'date') return;
    if (release.at === null) {
      ctx.addIssue({ code: 'custom', path: ['at'], message: LEGACY_MESSAGES.chooseDate });
    } else if (Date.parse(release.at) <= Date.now()) {
      ctx.addIssue({ code: 'custom', path: ['at'], message: LEGACY_MESSAGES.dateInFuture });
    }
  })
  .transform((release): TRelease => ({
    rule: release.rule,
    at: release.rule === 'date' ? release.at : null,
  }));

export const ZLegacySettings = z.object({
  waitingDays: z
    .number({ error: LEGACY_MESSAGES.waitingDays })
    .int(LEGACY_MESSAGES.waitingDays)
    .min(LEGACY_WAITING_DAYS.min, LEGACY_MESSAGES.waitingDays)
    .max(LEGACY_WAITING_DAYS.max, LEGACY_MESSAGES.waitingDays),
  inactivityMonths: z.union([z.literal(3), z.literal(6), z.literal(12), z.null()], {
    error: LEGACY_MESSAGES.inactivityMonths,
  }),
  showWaitingMessages: z.boolean({ error: 'Please say whether recipients see waiting messages' }),
});
export type TLegacySettings = {
  waitingDays: number;
  inactivityMonths: TInactivityMonths | null;
  showWaitingMessages: boolean;
};

/**
 * POST /api/legacy/requests: the next of kin's emergency code's proof (a sealed card), or the code
 * as typed (a code the server made; the answer to a proof is then 401 `CODE_NEEDED`).
 */
export const ZLegacyRequestBody = z
  .object({
    emergencyCode: z
      .string({ error: LEGACY_MESSAGES.codeRequired })
      .trim()
      .min(1, LEGACY_MESSAGES.codeRequired)
      .max(64, LEGACY_MESSAGES.wrongCode)
      .optional(),
    codeProof: ZCodeProof.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.emergencyCode && body.codeProof)
      ctx.addIssue({
        code: 'custom',
        path: ['codeProof'],
        message: ENCRYPTION_MESSAGES.proofOrCode,
      });
    else if (!body.emergencyCode && !body.codeProof)
      ctx.addIssue({
        code: 'custom',
        path: ['emergencyCode'],
        message: LEGACY_MESSAGES.codeRequired,
      });
  });

export const ZCancelLinkBody = z.object({
  token: z.string({ error: LEGACY_MESSAGES.linkUsed }).min(1).max(200),
});

/** The owner turns a next of kin's asking off, or on again. */
export const ZAskingBody = z.object({
  isAllowed: z.boolean({ error: LEGACY_MESSAGES.chooseAsking }),
});
export const ZAskingParams = z.object({
  nextOfKinId: z.coerce
    .number({ error: LEGACY_MESSAGES.nextOfKinNotFound })
    .int(LEGACY_MESSAGES.nextOfKinNotFound)
    .positive(LEGACY_MESSAGES.nextOfKinNotFound)
    .max(2_147_483_647, LEGACY_MESSAGES.nextOfKinNotFound),
});

/** Why a next of kin may not ask now, and from when they may (null: until the owner allows it). */
export interface TAskHold {
  reason: 'cancelled' | 'ended' | 'stopped';
  askAgainOn: string | null;
}

/** A next of kin as the owner's Legacy release page lists them. */
export interface TLegacyAsker {
  id: number;
  firstName: string;
  lastName: string;
  hold: TAskHold | null;
}

/** A waiting release as the owner sees it (on every signed-in screen) and the next of kin. */
export interface TLegacyRequest {
  requestedAt: string;
  releasesAt: string;
  requestedBy: { firstName: string; lastName: string } | null;
}

/** GET /api/legacy and PUT /api/legacy/settings. */
export interface TLegacyState {
  settings: TLegacySettings;
  request: TLegacyRequest | null;
  releasedAt: string | null;
  /** Once released: the 'after my legacy' messages now open, and how many were watched. */
  opened: { total: number; watched: number } | null;
  /** When the owner last ended a release, while none is in force. */
  endedAt: string | null;
  askers: TLegacyAsker[];
}

/** What a next of kin sees of the owner's legacy on their home. */
export interface TNextOfKinLegacy {
  status: 'none' | 'waiting' | 'released';
  requestedAt: string | null;
  releasesAt: string | null;
  releasedAt: string | null;
  /** How long the owner has to cancel a request, in days. */
  waitingDays: number;
  /** The owner's legacy history, shown to the next of kin once released. */
  history: Array<{ at: string; text: string }>;
  /** Present only while this next of kin may not ask. */
  hold?: TAskHold;
}

/** A message the recipient cannot watch yet, shown only where the owner allows it. */
export interface TWaitingMessage {
  id: string;
  opensWith: 'date' | 'legacy';
  opensAt: string | null;
}
