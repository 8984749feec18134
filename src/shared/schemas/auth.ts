import type { TLegacyRequest } from './legacy';
import { z } from 'zod';
import { MESSAGES } from '../domain/errors';
import { ENCRYPTION_MESSAGES, ZCodeProof, type TRecipientKeyForRecipient } from './encryption';
import { ZPasswordProof } from './derived-password';
import type { TRole, TSubscriptionStatus, TTier, TUserCategory } from '../domain/enums';
import {
  SINGLE_LINE_MESSAGE,
  ZDeviceId,
  ZEmail,
  ZNewPassword,
  confirmsPassword,
  isSingleLine,
  requiredText,
} from './common';

export const USERNAME_PATTERN = /^[a-z0-9._-]+$/;

export const ZUsername = z
  .string({ error: 'Username is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Username is required')
  .min(3, 'Username must be at least 3 characters')
  .max(40, 'Username must be at most 40 characters')
  .regex(USERNAME_PATTERN, 'Username may use letters, numbers, dots, dashes and underscores');

/**
 * A username with its password, or with the password's proof where enhanced encryption is on:
 * refine with `oneFormOfPassword` so exactly one comes.
 */
export const ZPasswordCredentials = z.object({
  username: ZUsername,
  password: z.string().min(1, 'Password is required').max(256).optional(),
  /** The password's proof, for an account with enhanced encryption on. */
  passwordProof: ZPasswordProof.optional(),
});

/** POST /api/register. */
export const ZRegisterBody = z.object({
  firstName: requiredText('First name is required'),
  lastName: requiredText('Last name is required'),
  email: ZEmail,
  username: ZUsername,
  password: ZNewPassword,
  category: z.literal('primary').default('primary'),
  createdById: z.null().optional(),
  tosAccepted: z.literal(true, { error: MESSAGES.tosRequired }),
  tosAcceptedAt: z.iso.datetime({ error: MESSAGES.tosRequired }),
  deviceId: ZDeviceId,
  fingerprint: z
    .string()
    .max(2000)
    .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE })
    .optional(),
});
export type TRegisterBody = z.input<typeof ZRegisterBody>;

/** The browser form: the schema above plus the confirmation field. */
export const ZRegisterForm = z
  .object({
    firstName: requiredText('First name is required'),
    lastName: requiredText('Last name is required'),
    email: ZEmail,
    username: ZUsername,
    password: ZNewPassword,
    confirmPassword: z.string(),
  })
  .refine(...confirmsPassword('password'));
export type TRegisterForm = z.input<typeof ZRegisterForm>;

/**
 * POST /api/login. `username_password` for primary accounts; `email_access_code` for recipients,
 * who give their email (in `username`, or in `email`) and either their code's proof (`codeProof`,
 * made in the browser: a sealed card's code never leaves it) or, after a 401 `CODE_NEEDED`, the
 * access code as typed in `password`.
 */
export const ZLoginBody = z
  .object({
    username: z
      .string()
      .trim()
      .toLowerCase()
      .max(254)
      .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE })
      .optional(),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254)
      .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE })
      .optional(),
    password: z.string({ error: 'Password is required' }).max(256).optional(),
    codeProof: ZCodeProof.optional(),
    /** An owner's password split in the browser (enhanced encryption on): sent in its place. */
    passwordProof: ZPasswordProof.optional(),
    method: z
      .enum(['username_password', 'email_access_code'], {
        error: 'This sign-in method is not available',
      })
      .default('username_password'),
    deviceId: ZDeviceId,
  })
  .superRefine((body, ctx) => {
    const identifier =
      body.method === 'email_access_code' ? (body.email ?? body.username) : body.username;
    if (body.method === 'email_access_code') {
      if (!identifier)
        ctx.addIssue({ code: 'custom', path: ['email'], message: 'Email is required' });
      else if (!z.email().safeParse(identifier).success)
        ctx.addIssue({
          code: 'custom',
          path: ['email'],
          message: 'Please enter a valid email address',
        });
      if (body.password && body.codeProof)
        ctx.addIssue({
          code: 'custom',
          path: ['codeProof'],
          message: ENCRYPTION_MESSAGES.proofOrCode,
        });
      else if (!body.password && !body.codeProof)
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'Access code is required' });
      if (body.passwordProof)
        ctx.addIssue({
          code: 'custom',
          path: ['passwordProof'],
          message: 'This sign-in method is not available',
        });
      return;
    }
    if (body.codeProof)
      ctx.addIssue({
        code: 'custom',
        path: ['codeProof'],
        message: 'This sign-in method is not available',
      });
    if (!identifier)
      ctx.addIssue({ code: 'custom', path: ['username'], message: 'Username is required' });
    if (body.password && body.passwordProof)
      ctx.addIssue({
        code: 'custom',
        path: ['passwordProof'],
        message: 'Please send the password or its proof, not both.',
      });
    else if (!body.password && !body.passwordProof)
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password is required' });
  })
  .transform((body) => ({
    method: body.method,
    username:
      (body.method === 'email_access_code' ? (body.email ?? body.username) : body.username) ?? '',
    password: body.password ?? '',
    codeProof: body.codeProof,
    passwordProof: body.passwordProof,
    deviceId: body.deviceId,
  }));
export type TLoginBody = z.input<typeof ZLoginBody>;

export const ZLoginForm = z.object({
  username: z.string().trim().min(1, 'Username is required'),
  password: z.string().min(1, 'Password is required'),
});
export type TLoginForm = z.input<typeof ZLoginForm>;

/** The recipient's sign-in form: their email and the access code they were given. */
export const ZAccessCodeLoginForm = z.object({
  email: ZEmail,
  accessCode: z.string().trim().min(1, 'Access code is required').max(64),
});
export type TAccessCodeLoginForm = z.input<typeof ZAccessCodeLoginForm>;

export interface TDeviceSync {
  isPrimary: boolean;
  deviceId: string;
  lastSyncAt: string | null;
}

/** What GET /api/user, POST /api/login and POST /api/register answer. */
export interface TUser {
  id: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  isPrimary: boolean;
  isAdmin: boolean;
  role: TRole;
  category: TUserCategory;
  createdById: number | null;
  tosAccepted: boolean;
  tosAcceptedAt: string | null;
  firstLogin: boolean;
  hasSetPassword: boolean;
  twoFactorEnabled: boolean;
  subscriptionStatus: TSubscriptionStatus;
  subscriptionTier: TTier;
  isVIP: boolean;
  onboardingCompletedAt: string | null;
  createdAt: string;
  /** 'primary' when signed in on the account's primary device, else 'secondary'. */
  deviceStatus: 'primary' | 'secondary';
  deviceSync: TDeviceSync | null;
  /** GET /api/user, for an owner: a legacy release their next of kin asked for, while it waits. */
  legacyRelease?: TLegacyRequest | null;
  /**
   * POST /api/login with a code's proof: the matched recipient's card, opened with the code's key
   * half (empty while their key is not handed over yet).
   */
  recipientKeys?: TRecipientKeyForRecipient[];
}

export interface TSessionCheck {
  authenticated: boolean;
  userId: number | null;
  expiresAt: string | null;
}
