import { z } from 'zod';
import { zId } from './common';
import { ZUploadFields } from './cloud';
import { ENCRYPTION_MESSAGES } from './encryption';
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
  // A phone holds no account key to wrap a copy's key under: it sends plain copies only.
  sealed: z.never({ error: ENCRYPTION_MESSAGES.phoneCannotSeal }).optional(),
  byteSize: ZUploadFields.shape.byteSize.max(MAX_VIDEO_BYTES, 'This video is too large'),
}).omit({ videoId: true });
export type TPairingVideoBody = z.input<typeof ZPairingVideoBody>;
