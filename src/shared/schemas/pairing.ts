import { z } from 'zod';
import { zId } from './common';
import { ZUploadFields } from './cloud';
import { ZKeyWrap, ZPairingKey } from './encryption';
import { MAX_VIDEO_BYTES, ZVideoType } from './videos';

/** Import from mobile: a phone paired for a while to upload, nothing more. */
export const PAIRING_HEADER = 'x-pairing-token';
export const PAIRING_MINUTES = 15;

export const PAIRING_MESSAGES = {
  ended: 'This pairing has ended. Ask for a new code on your main device.',
  paidOnly:
    'Importing from a phone is part of the Standard, Premium and Professional plans, on your primary device.',
  idInUse: 'This video id is already in use. Each video sent from a phone is a new message.',
} as const;

/** POST /api/pairings: with enhanced encryption on, the pairing key made on the owner's device. */
export const ZCreatePairingBody = z
  .object({ pairingKey: ZPairingKey.optional() })
  .nullish()
  .transform((body) => body ?? {});
export type TCreatePairingBody = z.input<typeof ZCreatePairingBody>;

/** POST /api/pairings: the primary device's new pairing, its link shown as a QR code. */
export interface TPairingCreated {
  pairingId: string;
  /** Opens the phone's import page; the secret travels in the fragment, never to a server log. */
  url: string;
  expiresAt: string;
}

export interface TCurrentPairing {
  pairing: { id: string; expiresAt: string; uploadsCount: number } | null;
}

/** GET /api/pairing (with the pairing token): what the phone needs to send, and nothing else. */
export interface TPairingSession {
  ownerFirstName: string;
  expiresAt: string;
  recipients: Array<{ id: number; firstName: string; lastName: string; category: string }>;
  /** The pairing key the phone seals with (its bytes only in the link's fragment); null: plain. */
  pairingKeyId: string | null;
}

/** POST /api/pairing/videos: one gallery video, indexed and its upload started in one call. */
export const ZPairingVideoBody = ZUploadFields.extend({
  id: z.uuid({ error: 'Video id must be a UUID' }),
  recipientId: zId('Please choose a recipient'),
  durationMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 60 * 60 * 1000),
  mimeType: ZVideoType('Only videos can be imported'),
  // Sealed on the phone under its own content key, wrapped under the pairing key only; then
  // `byteSize` is the sealed size.
  sealed: z.object({ pairingKeyWrap: ZKeyWrap }).optional(),
  // A phone sends each part's SHA-256 at completion (a gallery video is never read whole); older
  // phones declared the whole video's here.
  sha256: ZUploadFields.shape.sha256.optional(),
})
  .omit({ videoId: true })
  .refine((body) => body.sealed !== undefined || body.byteSize <= MAX_VIDEO_BYTES, {
    message: 'This video is too large',
    path: ['byteSize'],
  });
export type TPairingVideoBody = z.input<typeof ZPairingVideoBody>;
