import { z } from 'zod';
import { MESSAGES } from '../domain/errors';
import type { TRole, TSubscriptionStatus, TTier, TUserCategory } from '../domain/enums';
import { ZDeviceId, ZEmail, ZNewPassword, requiredText } from './common';

export const USERNAME_PATTERN = /^[a-z0-9._-]+$/;

export const ZUsername = z
  .string({ error: 'Username is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Username is required')
  .min(3, 'Username must be at least 3 characters')
  .max(40, 'Username must be at most 40 characters')
  .regex(USERNAME_PATTERN, 'Username may use letters, numbers, dots, dashes and underscores');

/** POST /api/register (SPEC §3 registration payload). */
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
  fingerprint: z.string().max(2000).optional(),
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
  .refine((form) => form.password === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type TRegisterForm = z.input<typeof ZRegisterForm>;

/** POST /api/login. Only username_password exists until recipients arrive. */
export const ZLoginBody = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .toLowerCase()
    .min(1, 'Username is required')
    .max(254),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(256),
  method: z
    .literal('username_password', {
      error: 'This sign-in method is not available yet',
    })
    .default('username_password'),
  deviceId: ZDeviceId,
});
export type TLoginBody = z.input<typeof ZLoginBody>;

export const ZLoginForm = z.object({
  username: z.string().trim().min(1, 'Username is required'),
  password: z.string().min(1, 'Password is required'),
});
export type TLoginForm = z.input<typeof ZLoginForm>;

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
}

export interface TSessionCheck {
  authenticated: boolean;
  userId: number | null;
  expiresAt: string | null;
}
