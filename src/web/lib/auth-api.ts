import { STORAGE_KEYS } from '@shared/domain/device';
import type {
  TDeviceSync,
  TLoginForm,
  TRegisterBody,
  TSessionCheck,
  TUser,
} from '@shared/schemas/auth';
import type { TDeviceStatus } from '@shared/schemas/devices';
import type { TRecipientKeyForRecipient } from '@shared/schemas/encryption';
import { apiRequest, isApiError } from './api-client';
import { readJson, removeItem, writeJson } from './browser-storage';
import { buildFingerprint } from './fingerprint';
import { sendWithPassword, type TPasswordField } from './encryption/password-proof';

export const USER_QUERY_KEY = ['/api/user'] as const;
export const DEVICE_STATUS_QUERY_KEY = ['/api/device/status'] as const;

/** What the client keeps about this device's status. */
export interface TClientDeviceStatus {
  deviceId: string;
  isPrimary: boolean;
  lastSyncAt: string | null;
}

export function toClientDeviceStatus(source: TDeviceSync | TDeviceStatus): TClientDeviceStatus {
  return { deviceId: source.deviceId, isPrimary: source.isPrimary, lastSyncAt: source.lastSyncAt };
}

/** GET /api/user; a 401 means signed out and answers null. */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<TUser | null> {
  try {
    return await apiRequest<TUser>('/api/user', { signal });
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

/** The username and password a sign-in was refused with on a new device, to move the account here. */
export interface TMoveCredentials {
  username: string;
  password: string;
}

/**
 * Sends a request that carries `credentials` as the server takes them: the username as stored,
 * and the password's proof (the password itself only when the account asks for it).
 */
export function sendWithCredentials<T>(
  credentials: TMoveCredentials,
  send: (fields: { username: string } & TPasswordField) => Promise<T>,
): Promise<T> {
  const username = credentials.username.trim().toLowerCase();
  return sendWithPassword(username, credentials.password, (field) => send({ username, ...field }));
}

/** Username and password, or (for recipients) email and access code. */
export type TLoginCredentials = TLoginForm & {
  method?: 'username_password' | 'email_access_code';
  /**
   * A recipient's code proven in the browser (lib/encryption/code-sign-in): sent in place of the
   * code, which `password` then holds only for a card the server made itself and asks for.
   */
  codeProof?: string;
  /** Keeps the recipient keys the sign-in answers with, before the person is shown signed in. */
  onRecipientKeys?: (keys: readonly TRecipientKeyForRecipient[]) => Promise<void>;
};

type TLoginAnswer = TUser & { recipientKeys?: TRecipientKeyForRecipient[] };

function sendLogin(
  credentials: TLoginCredentials,
  secret: { codeProof: string } | TPasswordField,
): Promise<TLoginAnswer> {
  return apiRequest<TLoginAnswer>('/api/login', {
    method: 'POST',
    buildBody: (deviceId) => ({
      username: credentials.username.trim().toLowerCase(),
      ...secret,
      method: credentials.method ?? 'username_password',
      deviceId,
    }),
  });
}

function sendCodeLogin(credentials: TLoginCredentials, codeProof: string): Promise<TLoginAnswer> {
  return sendLogin(credentials, { codeProof }).catch((error: unknown) => {
    // A code the server made (before cards): it asks for the code as typed, once.
    if (isApiError(error, 'CODE_NEEDED')) {
      return sendLogin(credentials, { password: credentials.password });
    }
    throw error;
  });
}

export async function loginWithPassword(credentials: TLoginCredentials): Promise<TUser> {
  const { codeProof } = credentials;
  const isOwner = (credentials.method ?? 'username_password') === 'username_password';
  const answer = codeProof
    ? await sendCodeLogin(credentials, codeProof)
    : isOwner
      ? // An owner's password: its proof, the password itself only if the account asks for it.
        await sendWithPassword(credentials.username, credentials.password, (field) =>
          sendLogin(credentials, field),
        )
      : await sendLogin(credentials, { password: credentials.password });
  // The keys are not part of the user kept in this browser: only the device's wraps of them are.
  const { recipientKeys, ...user } = answer;
  if (recipientKeys?.length) await credentials.onRecipientKeys?.(recipientKeys);
  return user;
}

export type TRegisterInput = Pick<
  TRegisterBody,
  'firstName' | 'lastName' | 'email' | 'username' | 'password' | 'tosAcceptedAt'
>;

export function registerAccount(input: TRegisterInput): Promise<TUser> {
  return apiRequest<TUser>('/api/register', {
    method: 'POST',
    buildBody: (deviceId): TRegisterBody => ({
      ...input,
      category: 'primary',
      createdById: null,
      tosAccepted: true,
      deviceId,
      fingerprint: buildFingerprint(),
    }),
  });
}

export function logoutSession(): Promise<{ ok: boolean }> {
  return apiRequest('/api/logout', { method: 'POST' });
}

export function checkSession(): Promise<TSessionCheck> {
  return apiRequest('/api/session-check');
}

// Browser cache of who is signed in and what this device is (keys in STORAGE_KEYS), so a page
// can draw before the server answers.

/** Only the person who records sets up an account; the people they record for never do. */
export function needsOnboarding(user: TUser): boolean {
  return user.category === 'primary' && !user.onboardingCompletedAt;
}

/** The person who records, signed in on the device their account is tied to. */
export function isPrimaryUser(user: TUser): boolean {
  return user.isPrimary && user.deviceStatus === 'primary';
}

export function readCachedUser(): TUser | null {
  return readJson<TUser>(STORAGE_KEYS.currentUser);
}

export function cacheUser(user: TUser | null): void {
  if (user) writeJson(STORAGE_KEYS.currentUser, user);
  else removeItem(STORAGE_KEYS.currentUser);
}

export function readCachedDeviceStatus(): TClientDeviceStatus | null {
  return readJson<TClientDeviceStatus>(STORAGE_KEYS.deviceStatus);
}

export function cacheDeviceStatus(status: TClientDeviceStatus | null): void {
  if (status) writeJson(STORAGE_KEYS.deviceStatus, status);
  else removeItem(STORAGE_KEYS.deviceStatus);
}

/** After the server signs someone in on this device: keep who they are and this device's status. */
export function cacheSignedIn(user: TUser): void {
  cacheUser(user);
  cacheDeviceStatus(user.deviceSync ? toClientDeviceStatus(user.deviceSync) : null);
}
