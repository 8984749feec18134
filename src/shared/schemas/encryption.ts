import { z } from 'zod';
import { KDF_ITERATIONS, isWrapShaped } from '../sealing';

/**
 * Enhanced encryption's API: the account key (made in the owner's browser) travels only as
 * wraps, under the owner's password and under the printed recovery sheet; each cloud copy's
 * content key travels only wrapped under the account key. The server checks shapes, never
 * contents: it cannot open a wrap.
 */

export const ENCRYPTION_MESSAGES = {
  notOnPlan: 'Enhanced encryption comes with every paid plan.',
  alreadyOn: 'Enhanced encryption is already on for this account.',
  notOn: 'Turn on enhanced encryption before sending sealed copies.',
  sealedOnly:
    'This account seals every cloud copy. Please reload Memento so this device seals it too.',
  badWrap: 'This key could not be read. Please try again.',
  wrongPassword: 'That password is not right.',
  /** Unlocking with a password set by an emailed code, an admin or the next of kin. */
  passwordWrapOld:
    'Your password was reset since your messages were sealed, so it does not open them yet. Unlock once with your recovery sheet (or use a device that is still unlocked), then let your new password open them again.',
  passwordWrapCurrent: 'Your password already opens your sealed messages.',
  ownerOnly: 'Only the account owner can use enhanced encryption.',
  primaryDeviceOnly: 'Please turn on enhanced encryption on your primary device.',
  /** 409: a pairing asked for without the phone's key, in an account that seals every copy. */
  pairingKeyRequired:
    'With enhanced encryption on, the phone’s key is made on your device. Please reload Memento and pair again.',
  pairingKeyNotOn: 'A phone’s key is for accounts with enhanced encryption on.',
  /** 409: a plain video from a phone, for an account that seals every copy. Nothing is kept. */
  phoneMustSeal:
    'This account keeps every video sealed, and this phone sent one that was not. Please scan a new code on your main device and send it again.',
  /** 409: a phone paired before enhanced encryption was turned on holds no key to seal with. */
  phoneNeedsNewPairing:
    'Enhanced encryption was turned on after this phone was paired. Please scan a new code on your main device.',
  phoneSealNotOn: 'This account does not seal its videos. Please send the video as it is.',
  /** 409: a phone's video the owner's device has not wrapped for the owner yet. */
  waitingToBeSealed:
    'This message came from your phone and is waiting to be sealed by your tablet. Open Memento there and it will be ready in a moment.',
  /** 404: a phone's video that waits no more (already sealed for the owner, or not theirs). */
  notWaitingToBeSealed: 'This message is not waiting to be sealed. Please reload Memento.',
  cardRequired:
    'With enhanced encryption on, each recipient’s card is made on your device. Please reload Memento and try again.',
  cardNotOn: 'Cards made on your device are for accounts with enhanced encryption on.',
  badProof: 'This access code could not be read. Please type it again.',
  /** 401 CODE_NEEDED: no card matched, but a code made by the server may; send the code as typed. */
  codeNeeded: 'This code was made by Memento before cards: please send it as typed.',
  proofOrCode: 'Please send the code or its proof, not both.',
  /** 409: a card's wraps were sent for a card that has since been replaced. */
  cardChanged: 'This recipient has a newer card. Please reload Memento and try again.',
  /** 409: an upload wrapped its key for a recipient who has no card yet. */
  noCard:
    'This recipient has no card made on your device yet, so the message cannot be wrapped for them. Please reload Memento and try again.',
  /** 404: a wrap named a message that is not one of the owner's sealed messages for this recipient. */
  sealedMessageNotFound:
    'One of these messages is not a sealed message for this recipient. Please reload Memento and try again.',
  oneWrapEach: 'Please send each message once.',
  /** 409: a plain cloud copy is replaced only by a sealed one its recipient can open. */
  resealNeedsCard:
    'This message is for someone who has no card made on your device yet, so it stays as it is for now. Give them a new card on the Recipients page, then seal it.',
  /** 409: the recipient's card changed while the sealed copy was on its way; the plain one stays. */
  resealCardChanged:
    'This message’s recipient got a new card while it was being sealed. It stays as it was: please try again.',
} as const;

const MAX_ITERATIONS = 5_000_000;

/** The settings a secret was stretched with, travelling beside the wrap it opens. */
export const ZKdfParams = z.object({
  algorithm: z.literal('PBKDF2-SHA-256'),
  iterations: z.number().int().min(KDF_ITERATIONS.code).max(MAX_ITERATIONS),
  salt: z.string().regex(/^[A-Za-z0-9_-]{22,88}$/, 'The salt must be base64url'),
});

export const ZKeyWrap = z
  .string({ error: ENCRYPTION_MESSAGES.badWrap })
  .max(200, ENCRYPTION_MESSAGES.badWrap)
  .refine(isWrapShaped, { message: ENCRYPTION_MESSAGES.badWrap });

/**
 * POST /api/encryption: turn it on. The password is checked once more (the owner is at the
 * device): the last time it is sent, since from then on the account signs in with
 * `passwordProof`, its sign-in half split with `passwordKdf`, the same split whose key half wraps
 * the account key. The account key arrives only wrapped under that key half and the recovery
 * sheet's.
 */
export const ZTurnOnEncryptionBody = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(256),
  passwordProof: z
    .string({ error: ENCRYPTION_MESSAGES.badWrap })
    .regex(/^[A-Za-z0-9_-]{43}$/, ENCRYPTION_MESSAGES.badWrap),
  passwordWrap: ZKeyWrap,
  passwordKdf: ZKdfParams,
  recoveryWrap: ZKeyWrap,
  recoveryKdf: ZKdfParams,
});
export type TTurnOnEncryptionBody = z.input<typeof ZTurnOnEncryptionBody>;

/**
 * PUT /api/encryption/password-wrap: after a reset the account key is wrapped again, in the
 * browser, under the new password's key half; the password's sign-in half proves who asks.
 */
export const ZRenewPasswordWrapBody = z.object({
  passwordProof: ZTurnOnEncryptionBody.shape.passwordProof,
  passwordWrap: ZKeyWrap,
});
export type TRenewPasswordWrapBody = z.input<typeof ZRenewPasswordWrapBody>;

/** GET /api/encryption (and the answer of turning it on). */
export type TEncryptionState =
  | { state: 'off'; /** The account's plan allows turning it on. */ isOffered: boolean }
  | {
      state: 'on';
      turnedOnAt: string;
      passwordWrap: string;
      passwordKdf: z.output<typeof ZKdfParams>;
      /** False after a reset: the wrap is of an earlier password until it is wrapped again. */
      isPasswordWrapCurrent: boolean;
      recoveryWrap: string;
      recoveryKdf: z.output<typeof ZKdfParams>;
    };

/**
 * What POST /api/uploads adds for a sealed copy: the content key wrapped under the account key.
 * `byteSize` and `sha256` then describe the sealed bytes, never the recording's.
 */
export const ZSealedUpload = z.object({
  keyWrap: ZKeyWrap,
  /** The content key wrapped under the recipient's key, when the recipient has a sealed card. */
  recipientKeyWrap: ZKeyWrap.optional(),
});
export type TSealedUpload = z.input<typeof ZSealedUpload>;

/** Wrap labels: each binds a wrap to what it is for, so the server cannot move one elsewhere. */
export const WRAP_LABEL_PARTS = {
  accountByPassword: (userId: number) => ['account', String(userId), 'password'],
  accountByRecovery: (userId: number) => ['account', String(userId), 'recovery'],
  accountByNextOfKin: (userId: number, keyId: string) => [
    'account',
    String(userId),
    'next-of-kin',
    keyId,
  ],
  accountByDevice: (userId: number, deviceId: string) => [
    'account',
    String(userId),
    'device',
    deviceId,
  ],
  contentForOwner: (videoId: string) => ['content', videoId, 'owner'],
  contentOnDevice: (videoId: string, deviceId: string) => ['content', videoId, 'device', deviceId],
  recipientByOwner: (keyId: string) => ['recipient', keyId, 'owner'],
  recipientByCode: (keyId: string) => ['recipient', keyId, 'code'],
  recipientOnDevice: (keyId: string, deviceId: string) => ['recipient', keyId, 'device', deviceId],
  contentForRecipient: (videoId: string, keyId: string) => ['content', videoId, 'recipient', keyId],
  pairingByOwner: (keyId: string) => ['pairing', keyId, 'owner'],
  contentForPairing: (videoId: string, keyId: string) => ['content', videoId, 'pairing', keyId],
} as const;

/**
 * What the browser sends instead of an access or emergency code: the code's sign-in half
 * (`splitSecret('code', code, await codeKdfParams(email)).signInHalf`, 32 bytes base64url). The
 * server keeps only a hash of it and can never compute the key half from it.
 */
export const ZCodeProof = z
  .string({ error: ENCRYPTION_MESSAGES.badProof })
  .regex(/^[A-Za-z0-9_-]{43}$/, ENCRYPTION_MESSAGES.badProof);

/**
 * A recipient's card made in the owner's browser: a new code (shown to the owner, never sent),
 * its proof, and the recipient key (made there too) wrapped under the owner's account key and
 * under the code's key half. Sent when adding a recipient to an account with enhanced encryption
 * on (`sealedCard` in POST /api/recipients) and to replace a card (POST
 * /api/recipients/:id/sealed-card), which also ends the old code.
 */
export const ZSealedCard = z.object({
  keyId: z.uuid({ error: ENCRYPTION_MESSAGES.badWrap }),
  codeProof: ZCodeProof,
  ownerWrap: ZKeyWrap,
  codeWrap: ZKeyWrap,
  /** A next of kin's card only: the account key under the code's key half, withheld until release. */
  escrowWrap: ZKeyWrap.optional(),
});
export type TSealedCard = z.input<typeof ZSealedCard>;

/** A recipient's key as the owner's devices see it (GET /api/recipients): opened with the account key. */
export type TRecipientKeyForOwner = {
  keyId: string;
  ownerWrap: string;
  /** The card also holds the account key for the next of kin (GET /api/recipients says). */
  hasEscrow?: boolean;
};

/** A recipient's key as the recipient's devices get it at sign-in: opened with the code's key half. */
export type TRecipientKeyForRecipient = { keyId: string; codeWrap: string };

/**
 * GET /api/recipients/:id/sealed-messages: the owner's sealed messages for this recipient, so
 * the owner's browser can wrap each content key for the recipient's current card; PUT the
 * answers back (at most 200 a request).
 */
export type TSealedMessageForCard = {
  videoId: string;
  /** The content key under the owner's account key. */
  keyWrap: string;
  /** True when the recipient's current card already opens it. */
  isWrappedForCard: boolean;
};
export const MAX_CARD_WRAPS = 200;
export const ZCardWrapsBody = z.object({
  keyId: z.uuid({ error: ENCRYPTION_MESSAGES.badWrap }),
  wraps: z
    .array(z.object({ videoId: z.uuid(), recipientKeyWrap: ZKeyWrap }))
    .min(1)
    .max(MAX_CARD_WRAPS),
});
export type TCardWrapsBody = z.input<typeof ZCardWrapsBody>;

/**
 * GET /api/encryption/plain-copies: the owner's cloud copies still plain (made before enhanced
 * encryption was on). `sealableIds` can be sealed again now; `waiting` names each recipient who
 * needs a new card first, with how many of their messages wait for it.
 */
export type TPlainCopies = {
  plainCount: number;
  sealableIds: string[];
  waiting: Array<{ recipientId: number; firstName: string; count: number }>;
};

/**
 * A phone pairing in an account with enhanced encryption on: the pairing key, made in the owner's
 * browser and handed to the phone only in the link's fragment, wrapped here under the account key.
 */
export const ZPairingKey = z.object({
  keyId: z.uuid({ error: ENCRYPTION_MESSAGES.badWrap }),
  ownerWrap: ZKeyWrap,
});
export type TPairingKey = z.input<typeof ZPairingKey>;

/**
 * GET /api/phone-copies: the owner's sealed videos from a phone still waiting for the owner's
 * device, each with what opens it (the pairing key under the account key) and the recipient's
 * card to wrap it for (null when the owner is the recipient or the recipient has no card yet).
 */
export type TWaitingPhoneCopy = {
  videoId: string;
  recipientId: number;
  /** The content key under the pairing key. */
  pairingKeyWrap: string;
  pairingKey: { keyId: string; ownerWrap: string };
  recipientKey: TRecipientKeyForOwner | null;
};
export const MAX_WAITING_PHONE_COPIES = 50;

/** POST /api/phone-copies/:videoId/seal: the content key wrapped for the owner and the card. */
export const ZSealPhoneCopyBody = z.object({
  keyWrap: ZKeyWrap,
  recipientKey: z
    .object({ keyId: z.uuid({ error: ENCRYPTION_MESSAGES.badWrap }), keyWrap: ZKeyWrap })
    .optional(),
});
export type TSealPhoneCopyBody = z.input<typeof ZSealPhoneCopyBody>;
