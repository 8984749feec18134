import { ONE_TIME_CODE_LENGTH, normalizeCode } from '../../../shared/domain/codes';
import { MESSAGES } from '../../../shared/domain/errors';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { generateCode } from '../../lib/codes';
import { hashSecret, verifyAgainstDummy, verifySecret } from '../../lib/crypto';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  RESET_BY_EMAIL,
  reserveAttempt,
} from '../audit/attempt-guard';
import { consumeKeyAttempt, describeWait, KEY_LIMITS } from '../audit/throttle';
import { throttledError, throttledMessage, WAY_PAST_DELAY } from '../audit/throttle-messages';
import { passwordChangedMail, passwordResetCodeMail } from './passwords.mails';
import type { TNewPasswordGiven, TPasswordGiven } from '../../../shared/schemas/derived-password';
import { updatePasswordWrap } from '../encryption/encryption.repository';
import { isPasswordRight, newPasswordColumns, passwordNeeded } from './derived-password';
import {
  findPrimaryByEmail,
  findUserById,
  updateUser,
  type SessionUser,
} from '../users/users.repository';
import {
  addOneTimeCode,
  countWrongTry,
  findLiveOneTimeCodes,
  retireOneTimeCodes,
} from './one-time-codes.repository';
import { deleteOtherSessionsOfUser, deleteSessionsOfUser } from './sessions.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'mail'>;

export const ONE_TIME_CODE_LIFETIME_MS = 30 * 60_000;
export const ONE_TIME_CODE_MAX_TRIES = 5;

/**
 * Forgot password (primary accounts only: recipients have none). The answer is the same whether
 * or not the email
 * has an account, and takes about as long. Requests per email are capped, and past the cap the
 * answer says so with the real wait (the count is per email, so it reveals nothing about
 * accounts); a new code never retires one already mailed.
 */
export async function requestPasswordReset(
  deps: Deps,
  context: RequestContext,
  email: string,
): Promise<{ message: string }> {
  const answer = { message: MESSAGES.resetInstructionsSent };
  const code = generateCode(ONE_TIME_CODE_LENGTH);
  const codeHash = await hashSecret(normalizeCode(code));

  const slot = await consumeKeyAttempt(
    deps.db,
    KEY_LIMITS.resetRequestPerEmail,
    email,
    deps.clock.now(),
  );
  if (!slot.isAllowed) {
    throw new AppError(
      'RATE_LIMITED',
      `${MESSAGES.resetRequestsUsed} You can ask for another ${describeWait(slot.retryAt!, deps.clock.now())}.`,
    );
  }

  const user = await findPrimaryByEmail(deps.db, email);
  if (!user) {
    await recordAudit(deps.db, context, {
      eventType: 'password_reset_request',
      username: email,
      successful: false,
      details: { reason: 'no account with this email' },
    });
    return answer;
  }

  await deps.db.transaction(async (tx) => {
    await addOneTimeCode(tx, {
      userId: user.id,
      purpose: 'password_reset',
      codeHash,
      // The device that asked: there the code skips the account-wide delay.
      deviceId: context.deviceId ?? undefined,
      expiresAt: new Date(deps.clock.now().getTime() + ONE_TIME_CODE_LIFETIME_MS),
    });
    await deps.mail.enqueue(
      tx,
      passwordResetCodeMail({ owner: user, code, appUrl: deps.config.APP_URL }),
    );
    await recordAccountEvent(tx, context, user, {
      eventType: 'password_reset_request',
    });
  });
  deps.mail.kick();
  return answer;
}

export async function completePasswordReset(
  deps: Deps,
  context: RequestContext,
  input: { email: string; code: string; newPassword: TNewPasswordGiven },
): Promise<{ message: string }> {
  const { db } = deps;
  const user = await findPrimaryByEmail(db, input.email);
  // Every code mailed in the last 30 minutes works (a later request never retires an earlier one).
  const liveCodes = user
    ? await findLiveOneTimeCodes(
        db,
        user.id,
        'password_reset',
        ONE_TIME_CODE_MAX_TRIES,
        deps.clock.now(),
      )
    : [];
  // A code asked for on this device proves its holder reads the account's mail, so here it is
  // checked without the account-wide delay; its own wrong tries count against it instead.
  const ownCodes = liveCodes.filter(
    (row) => context.deviceId !== null && row.deviceId === context.deviceId,
  );
  // Counted per email and device, slowed rather than locked: a stranger's wrong
  // codes neither block the owner nor use up the code mailed to them.
  const slot = await reserveAttempt(db, {
    policy: ATTEMPT_POLICIES.resetCode,
    account: input.email,
    deviceId: context.deviceId,
    ip: context.ip,
    isFamiliarSource:
      user !== undefined && (await isFamiliarDevice(db, [user.id], context.deviceId)),
    skipsAccountDelay: ownCodes.length > 0,
    now: deps.clock.now(),
  });

  if (!slot.isAllowed) {
    await recordAudit(db, context, {
      eventType: 'password_reset',
      userId: user?.id ?? null,
      username: user?.username ?? input.email,
      successful: false,
      details: { reason: `throttled (${slot.reason})` },
    });
    throw throttledError(slot, WAY_PAST_DELAY.resetCode, deps.clock.now());
  }

  const live = liveCodes[0];
  let matched: (typeof liveCodes)[number] | undefined;
  for (const candidate of liveCodes) {
    if (await verifySecret(candidate.codeHash, normalizeCode(input.code))) {
      matched = candidate;
      break;
    }
  }
  if (!live) await verifyAgainstDummy(input.code);

  if (!user || !matched) {
    for (const row of ownCodes) await countWrongTry(db, row.id);
    await recordAudit(db, context, {
      eventType: 'password_reset',
      userId: user?.id ?? null,
      username: user?.username ?? input.email,
      successful: false,
      details: { reason: live ? 'wrong reset code' : 'no live reset code' },
    });
    throw new AppError('INVALID_CODE', MESSAGES.resetCodeInvalid);
  }

  await releaseAttempt(db, slot);
  // Asked for a plain password (PASSWORD_NEEDED) before the code is used, so it still works.
  const stored = await newPasswordColumns(db, user.id, input.newPassword);
  await db.transaction(async (tx) => {
    await retireOneTimeCodes(tx, user.id, 'password_reset', deps.clock.now());
    await updateUser(
      tx,
      user.id,
      { ...stored, firstLogin: false, hasSetPassword: true },
      deps.clock.now(),
    );
    await deleteSessionsOfUser(tx, user.id);
    await deps.mail.enqueue(
      tx,
      passwordChangedMail({
        owner: user,
        how: 'with a reset code sent to this email address',
        appUrl: deps.config.APP_URL,
      }),
    );
    await recordAccountEvent(tx, context, user, {
      eventType: 'password_reset',
      details: { method: RESET_BY_EMAIL },
    });
  });
  deps.mail.kick();
  return { message: 'Password Reset Successful' };
}

/** The dashboard dialog: the current password proves it is the owner; other sessions end. */
export async function changePassword(
  deps: Deps,
  context: RequestContext & { deviceId: string },
  input: {
    user: SessionUser;
    sessionIdHash: string;
    currentPassword: TPasswordGiven;
    newPassword: TNewPasswordGiven;
    /** Enhanced encryption on: the account key under the new password's key half. */
    newPasswordWrap?: string | undefined;
  },
): Promise<{ message: string }> {
  const { user } = input;
  // A request's user does not carry the password hash: read it for this check only.
  const current = await findUserById(deps.db, user.id);
  // Asked for before any attempt is counted: nothing was checked.
  if (input.currentPassword.form === 'proof' && current?.passwordHash && !current.passwordKdf) {
    throw passwordNeeded();
  }
  // Counted with this device's sign-ins; the owner's own session is never slowed by others' tries.
  const slot = await reserveAttempt(deps.db, {
    policy: ATTEMPT_POLICIES.login,
    account: `user:${user.id}`,
    deviceId: context.deviceId,
    ip: context.ip,
    isFamiliarSource: true,
    now: deps.clock.now(),
  });
  if (!slot.isAllowed) throw new AppError('RATE_LIMITED', throttledMessage(slot, deps.clock.now()));
  const isRight = await isPasswordRight(current, input.currentPassword);
  if (!isRight) {
    await recordAccountEvent(deps.db, context, user, {
      eventType: 'login_failed',
      successful: false,
      details: { reason: 'wrong current password when changing password' },
    });
    throw new AppError('VALIDATION', MESSAGES.currentPasswordWrong, {
      currentPassword: MESSAGES.currentPasswordWrong,
    });
  }
  await releaseAttempt(deps.db, slot);

  const stored = await newPasswordColumns(deps.db, user.id, input.newPassword);
  await deps.db.transaction(async (tx) => {
    await updateUser(
      tx,
      user.id,
      { ...stored, firstLogin: false, hasSetPassword: true },
      deps.clock.now(),
    );
    // The new password opens the account key from now on; without a new wrap (this device could
    // not open the old one) the recovery sheet and the owner's devices still do.
    if (stored.passwordKdf && input.newPasswordWrap) {
      await updatePasswordWrap(tx, user.id, {
        passwordWrap: input.newPasswordWrap,
        passwordKdf: stored.passwordKdf,
        updatedAt: deps.clock.now(),
      });
    }
    await deleteOtherSessionsOfUser(tx, user.id, input.sessionIdHash);
    await deps.mail.enqueue(
      tx,
      passwordChangedMail({ owner: user, how: 'from your dashboard', appUrl: deps.config.APP_URL }),
    );
    await recordAccountEvent(tx, context, user, {
      eventType: 'password_reset',
      details: { method: 'changed on the dashboard' },
    });
  });
  deps.mail.kick();
  return { message: 'Password has been reset successfully.' };
}

/** An account whose password was not chosen by its owner (an admin set it) chooses one now. */
export async function setupPassword(
  deps: Deps,
  context: RequestContext,
  input: { user: SessionUser; password: TNewPasswordGiven },
): Promise<{ message: string }> {
  if (!input.user.firstLogin) throw new AppError('VALIDATION', MESSAGES.passwordAlreadySet);
  const stored = await newPasswordColumns(deps.db, input.user.id, input.password);
  await deps.db.transaction(async (tx) => {
    await updateUser(
      tx,
      input.user.id,
      { ...stored, firstLogin: false, hasSetPassword: true },
      deps.clock.now(),
    );
    await recordAccountEvent(tx, context, input.user, {
      eventType: 'password_reset',
      details: { method: 'first password chosen by the owner' },
    });
  });
  return { message: 'Your password is set.' };
}
