import { ONE_TIME_CODE_LENGTH, normalizeCode } from '../../../shared/domain/codes';
import { MESSAGES } from '../../../shared/domain/errors';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { generateCode } from '../../lib/codes';
import { hashSecret, verifySecret } from '../../lib/crypto';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { consumeKeyAttempt, describeWait, KEY_LIMITS, type KeyLimit } from '../audit/throttle';
import {
  checkCredentials,
  createSession,
  type SignedIn,
  type TCredentials,
} from '../auth/auth.service';
import {
  findLiveOneTimeCodes,
  markOneTimeCodeUsed,
  replaceOneTimeCode,
  spendTries,
  type OneTimeCodeRow,
} from '../auth/one-time-codes.repository';
import { ONE_TIME_CODE_LIFETIME_MS, ONE_TIME_CODE_MAX_TRIES } from '../auth/passwords.service';
import { deleteSessionsOfUser } from '../auth/sessions.repository';
import type { OutgoingMail } from '../mail/mail.repository';
import { deviceMoveCodeMail, deviceMovedMail } from './devices.mails';
import type { SessionUser } from '../users/users.repository';
import {
  bindPrimaryDevice,
  findPrimaryAccountOnDevice,
  findPrimaryDeviceOfUser,
  insertDeviceReset,
  unbindDevice,
  type DeviceRow,
} from './devices.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'mail'>;

/** 'm•••••@example.com': enough for the owner to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'•'.repeat(Math.max(local.length - 1, 3))}@${domain}`;
}

async function assertMovable(deps: Deps, user: SessionUser, device: DeviceRow): Promise<DeviceRow> {
  const current = await findPrimaryDeviceOfUser(deps.db, user.id);
  if (!user.isPrimary || !current)
    throw new AppError('VALIDATION', 'This account can sign in here without moving.');
  if (current.id === device.id) throw new AppError('VALIDATION', MESSAGES.deviceMoveNotNeeded);
  if (await findPrimaryAccountOnDevice(deps.db, device.id)) {
    throw new AppError('DEVICE_HAS_PRIMARY_ACCOUNT', MESSAGES.deviceHasPrimaryAccount);
  }
  return current;
}

/** Moving to a new device, step 1: the right password there → a code to the account's email. */
export async function requestDeviceMove(
  deps: Deps,
  context: RequestContext,
  input: {
    device: DeviceRow;
    username: string;
    password: string;
    passwordProof?: string | undefined;
  },
): Promise<{ message: string; maskedEmail: string }> {
  const user = await checkCredentials(deps.db, context, { ...input, now: deps.clock.now() });
  await assertMovable(deps, user, input.device);
  return emailDeviceCode(deps, {
    user,
    device: input.device,
    purpose: 'device_move',
    limit: KEY_LIMITS.deviceMovePerAccount,
    store: replaceOneTimeCode,
    makeMail: (code) =>
      deviceMoveCodeMail({ owner: user, code, deviceName: input.device.deviceName }),
  });
}

/**
 * Step 1 of moving the account to a device, adding one, or linking a sign-in provider on it: a
 * code to the account's email. Requests are counted and recorded in one step, so parallel ones
 * cannot overshoot.
 */
export async function emailDeviceCode(
  deps: Deps,
  input: {
    user: SessionUser;
    device: DeviceRow;
    purpose: 'device_move' | 'device_add' | 'provider_link';
    limit: KeyLimit;
    /** Adds the code (`now` retires the earlier ones, where the store does). */
    store: typeof replaceOneTimeCode;
    makeMail: (code: string) => OutgoingMail;
  },
): Promise<{ message: string; maskedEmail: string }> {
  const { user } = input;
  const now = deps.clock.now();
  const slot = await consumeKeyAttempt(deps.db, input.limit, String(user.id), now);
  if (!slot.isAllowed) {
    throw new AppError(
      'RATE_LIMITED',
      `We have sent several codes just now. Please use the newest, or ask again ${describeWait(slot.retryAt!, now)}.`,
    );
  }
  const code = generateCode(ONE_TIME_CODE_LENGTH);
  const codeHash = await hashSecret(normalizeCode(code));
  await deps.db.transaction(async (tx) => {
    const expiresAt = new Date(now.getTime() + ONE_TIME_CODE_LIFETIME_MS);
    await input.store(
      tx,
      { userId: user.id, purpose: input.purpose, codeHash, deviceId: input.device.id, expiresAt },
      now,
    );
    await deps.mail.enqueue(tx, input.makeMail(code));
  });
  deps.mail.kick();
  const maskedEmail = maskEmail(user.email);
  return { message: `We sent a code to ${maskedEmail}. It works for 30 minutes.`, maskedEmail };
}

/**
 * Step 2's code, for a device move or a device add: each check spends a try of every live code
 * sent for this device, so after the allowed wrong tries even the right code fails until a new
 * one is asked for. Answers the matching code, or undefined.
 */
export async function checkDeviceCode(
  deps: Deps,
  input: {
    user: SessionUser;
    device: DeviceRow;
    purpose: 'device_move' | 'device_add';
    code: string;
  },
): Promise<OneTimeCodeRow | undefined> {
  const sentHere = (
    await findLiveOneTimeCodes(
      deps.db,
      input.user.id,
      input.purpose,
      ONE_TIME_CODE_MAX_TRIES,
      deps.clock.now(),
    )
  ).filter((row) => row.deviceId === input.device.id);
  const withTries = await spendTries(
    deps.db,
    sentHere.map((row) => row.id),
    ONE_TIME_CODE_MAX_TRIES,
  );
  for (const row of sentHere) {
    if (!withTries.includes(row.id)) continue;
    if (await verifySecret(row.codeHash, normalizeCode(input.code))) return row;
  }
  return undefined;
}

/**
 * Moving to a new device, step 2: the code moves the binding here and signs the owner in; the
 * old device is signed out.
 */
export async function completeDeviceMove(
  deps: Deps,
  context: RequestContext,
  input: TCredentials & { code: string },
): Promise<SignedIn> {
  const user = await checkCredentials(deps.db, context, { ...input, now: deps.clock.now() });
  const previous = await assertMovable(deps, user, input.device);

  const live = await checkDeviceCode(deps, {
    user,
    device: input.device,
    purpose: 'device_move',
    code: input.code,
  });
  if (!live) {
    await recordAccountEvent(deps.db, context, user, {
      eventType: 'device_reset',
      successful: false,
      details: { reason: 'wrong or expired code to move to a new device' },
    });
    throw new AppError('INVALID_CODE', MESSAGES.deviceMoveCodeInvalid);
  }

  const signedIn = await deps.db.transaction(async (tx) => {
    await markOneTimeCodeUsed(tx, live.id, deps.clock.now());
    await unbindDevice(tx, previous.id);
    await bindPrimaryDevice(tx, input.device.id, user.id);
    await deleteSessionsOfUser(tx, user.id);
    await insertDeviceReset(tx, {
      deviceId: previous.id,
      resetMethod: 'device_move',
      resetBy: `user:${user.id}`,
      previousAssociations: [{ userId: user.id, username: user.username, isPrimary: true }],
    });
    const device = { ...input.device, userId: user.id, isPrimary: true };
    const session = await createSession(tx, user, device, deps.clock.now());
    await deps.mail.enqueue(
      tx,
      deviceMovedMail({
        owner: user,
        deviceName: input.device.deviceName,
        appUrl: deps.config.APP_URL,
      }),
    );
    await recordAccountEvent(tx, context, user, {
      eventType: 'device_reset',
      details: {
        method: 'moved to a new device',
        from: previous.deviceName,
        to: input.device.deviceName,
      },
    });
    return { user, device, ...session };
  });
  deps.mail.kick();
  return signedIn;
}
