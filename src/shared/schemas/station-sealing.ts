import { z } from 'zod';
import { ZKdfParams, ZKeyWrap } from './encryption';
import { ZPasswordProof } from './derived-password';
import { STATION_MESSAGES } from './stations';

/**
 * A resident with enhanced encryption on, at a recording station: they type their own password,
 * the station's browser splits it as sign-in does and sends only the sign-in half; the answer is
 * the account key's password wrap, which only the key half (never sent) opens. Each take is then
 * sealed in the browser before it is sent. The station keeps the key in memory until Finish.
 */

export const STATION_SEALING_MESSAGES = {
  wrongPassword: 'That password is not right. Please try again.',
  /** 409: the password is right, but the wrap is still an earlier password's (a reset since). */
  passwordWrapOld:
    'That password is right, but it was changed since these messages were sealed, so it cannot open them here yet. Please unlock once on your own tablet with your recovery sheet, then come back.',
  notSealed: 'This person’s messages are not sealed. Please record as usual.',
  unlockFirst: 'Please type your password first, so the message can be sealed.',
  badSealedCopy: 'The sealed message could not be read. Please try again.',
} as const;

/** GET /api/station/sealing: whether the chosen resident's messages are sealed, and how to split the password. */
export type TStationSealing =
  | { isSealed: false }
  | {
      isSealed: true;
      /** Null when the account has no password that could be typed here. */
      passwordKdf: z.output<typeof ZKdfParams> | null;
    };

/** POST /api/station/sealing/unlock: the password's sign-in half, never the password. */
export const ZStationUnlockBody = z.object({ passwordProof: ZPasswordProof });
export type TStationUnlockBody = z.input<typeof ZStationUnlockBody>;

/**
 * The answer once the proof is right: the account key under the password's key half (with the
 * settings that half comes from), and each recipient's card key under the account key, so the
 * station can wrap each take for its recipient. The server can open none of them.
 */
export type TStationUnlocked = {
  passwordWrap: string;
  passwordKdf: z.output<typeof ZKdfParams>;
  recipientKeys: Array<{ recipientId: number; keyId: string; ownerWrap: string }>;
};

/**
 * POST /api/station/sealed-recordings: the sealed take is the body; what names it, and its
 * content key wrapped for the resident and (if they have a card) the recipient, in the query.
 */
export const ZStationSealedRecordingQuery = z.object({
  takeId: z.uuid({ error: STATION_MESSAGES.saveFailed }),
  recipientId: z.coerce.number().int().positive(STATION_MESSAGES.recipientNotFound),
  durationMs: z.coerce.number().int().min(0).max(3_600_000),
  mimeType: z.enum(['video/webm', 'video/mp4'], { error: STATION_MESSAGES.saveFailed }),
  keyWrap: ZKeyWrap,
  recipientKeyWrap: ZKeyWrap.optional(),
});
export type TStationSealedRecordingQuery = z.input<typeof ZStationSealedRecordingQuery>;
