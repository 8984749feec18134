import { z } from 'zod';
import { ZPasswordCredentials } from './auth';
import { oneFormOfPassword } from './derived-password';

/**
 * Moving messages tablet to tablet: the server introduces the two browsers and never carries a
 * byte of a video (docs/decisions/075-tablet-to-tablet-transfer.md).
 */
export const TRANSFER_TOKEN_HEADER = 'x-transfer-token';
/** How long the old device's code can be used before the new device takes it. */
export const TRANSFER_OFFER_MINUTES = 15;
/** How long a taken transfer may be resumed after an interruption. */
export const TRANSFER_RESUME_HOURS = 6;

export const TRANSFER_MESSAGES = {
  codeNotValid:
    'This code does not work. It may have been used or be too old. Ask your old device for a new one.',
  ended: 'This move has ended. Ask your old device for a new code.',
  sameDevice: 'Use this code on your new device, not on this one.',
  ownerOnly: 'Only the account owner can move messages between their devices.',
  signInHere: 'Your account is on this device. Sign in here to move your messages.',
  noneHere: 'None of this account’s messages are on this device.',
} as const;

const ZHex64 = z
  .string({ error: 'The code is not complete' })
  .regex(/^[0-9a-f]{64}$/, { error: 'The code is not complete' });

/** One STUN or TURN server, as RTCPeerConnection takes it. */
export const ZIceServer = z.object({
  urls: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type TIceServer = z.infer<typeof ZIceServer>;

/** POST /api/transfers: the old device offers its messages. */
export const ZCreateTransferBody = z.object({
  /** Derived from the secret code in the browser; the code itself never reaches the server. */
  lookup: ZHex64,
  videoCount: z.number().int().min(0).max(100_000),
});
export type TCreateTransferBody = z.infer<typeof ZCreateTransferBody>;

export interface TTransferCreated {
  transferId: string;
  /** The old device's own key to this one transfer; it outlives the old device's session. */
  senderToken: string;
  expiresAt: string;
  iceServers: TIceServer[];
}

/**
 * POST /api/transfers/with-password: the old device after the account moved on without its
 * messages. Signed out, it offers them with the account's password.
 */
export const ZCreateTransferWithPasswordBody = ZPasswordCredentials.extend({
  lookup: ZHex64,
}).superRefine(oneFormOfPassword('password', 'passwordProof'));
export type TCreateTransferWithPasswordBody = z.infer<typeof ZCreateTransferWithPasswordBody>;

export interface TTransferCreatedWithPassword extends TTransferCreated {
  /** The account whose messages this device holds: the library may hold others'. */
  userId: number;
}

/** POST /api/transfers/claim: the new device, signed in to the same account, takes the offer. */
export const ZClaimTransferBody = z.object({ lookup: ZHex64 });
export type TClaimTransferBody = z.infer<typeof ZClaimTransferBody>;

export interface TTransferClaimed {
  transferId: string;
  iceServers: TIceServer[];
  /** This device already received every message of this move (a page opened again after). */
  isFinished?: true;
}

export type TTransferState = 'waiting' | 'taken' | 'finished';

/** GET /api/transfers/:id/signal: the other side's description for the newest attempt. */
export interface TTransferSignal {
  state: TTransferState;
  attempt: number;
  /** For the old device: the new device's offer; for the new device: the old device's answer. */
  description: string | null;
}

/** PUT /api/transfers/:id/signal: a full description with its ICE candidates (no trickle). */
export const ZTransferSignalBody = z.object({
  /** The new device leaves it out (each offer starts a new attempt); the old device answers one. */
  attempt: z.number().int().min(1).optional(),
  description: z
    .string({ error: 'A connection description is needed' })
    .min(1, { error: 'A connection description is needed' })
    .max(64_000, { error: 'This connection description is too long' }),
});
export type TTransferSignalBody = z.infer<typeof ZTransferSignalBody>;

/** POST /api/transfers/:id/arrived: one message arrived whole and checked on the new device. */
export const ZTransferArrivedBody = z.object({
  videoId: z.uuid({ error: 'Video id must be a UUID' }),
});
export type TTransferArrivedBody = z.infer<typeof ZTransferArrivedBody>;

/** POST /api/transfers/:id/finish: every message arrived and was checked on the new device. */
export const ZFinishTransferBody = z.object({
  videoIds: z.array(z.uuid({ error: 'Video ids must be UUIDs' })).max(100_000),
});
export type TFinishTransferBody = z.infer<typeof ZFinishTransferBody>;

export const TRANSFER_FAILURE_REASONS = ['no_connection', 'checksum', 'interrupted'] as const;

/** POST /api/transfers/:id/failure: either side says why it stopped, for the owner's log. */
export const ZTransferFailureBody = z.object({
  reason: z.enum(TRANSFER_FAILURE_REASONS, { error: 'Unknown reason' }),
});
export type TTransferFailureBody = z.infer<typeof ZTransferFailureBody>;
