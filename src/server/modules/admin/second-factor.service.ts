import { EMERGENCY_CODE_LENGTH, normalizeCode } from '../../../shared/domain/codes';
import {
  ADMIN_MESSAGES,
  type TSecondFactorConfirmed,
  type TSecondFactorEnrolment,
  type TSecondFactorStatus,
} from '../../../shared/schemas/admin';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { generateCode } from '../../lib/codes';
import { sha256 } from '../../lib/crypto';
import { createTotpSecret, findTotpStep, totpUri } from '../../lib/totp';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { assertAccountNotThrottled } from '../audit/throttle';
import type { Db } from '../../db/client';
import { deleteSessionsOfUser } from '../auth/sessions.repository';
import {
  findUserById,
  findUserByUsername,
  updateUser,
  type SessionUser,
  type UserRow,
} from '../users/users.repository';
import {
  claimTotpStep,
  clearSecondFactor,
  countUnusedRecoveryCodes,
  markSessionSecondFactor,
  replaceRecoveryCodes,
  useRecoveryCode,
} from './second-factor.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'db' | 'secretBox'>;

const RECOVERY_CODE_COUNT = 10;

export interface AdminSession {
  admin: SessionUser;
  sessionIdHash: string;
  deviceId: string;
  isVerified: boolean;
}

export async function getSecondFactorStatus(
  deps: Deps,
  session: AdminSession,
): Promise<TSecondFactorStatus> {
  return {
    isEnrolled: session.admin.twoFactorEnrolledAt !== null,
    isVerified: session.isVerified,
    recoveryCodesLeft: await countUnusedRecoveryCodes(deps.db, session.admin.id),
  };
}

/** A fresh secret for the authenticator app; kept encrypted and pending until confirmed. */
export async function startEnrolment(
  deps: Deps,
  admin: SessionUser,
): Promise<TSecondFactorEnrolment> {
  if (admin.twoFactorEnrolledAt) {
    throw new AppError('CONFLICT', 'Two-factor authentication is already set up for this account.');
  }
  const secret = createTotpSecret();
  await updateUser(
    deps.db,
    admin.id,
    {
      twoFactorSecret: deps.secretBox.seal(secret),
      twoFactorLastStep: null,
    },
    deps.clock.now(),
  );
  const otpauthUri = totpUri(secret, admin.username);
  // Loaded on first use: only an admin's one-time set-up needs it.
  const { default: QRCode } = await import('qrcode');
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 240 });
  return { secret, otpauthUri, qrCodeDataUrl };
}

function assertNotThrottled(deps: Deps, session: AdminSession) {
  return assertAccountNotThrottled(deps.db, {
    eventType: 'admin_2fa_verified',
    userId: session.admin.id,
    deviceId: session.deviceId,
    message: ADMIN_MESSAGES.secondFactorRateLimited,
    now: deps.clock.now(),
  });
}

async function refuseCode(
  deps: Deps,
  context: RequestContext,
  admin: SessionUser,
  reason: string,
): Promise<never> {
  await recordAccountEvent(deps.db, context, admin, {
    eventType: 'admin_2fa_verified',
    successful: false,
    details: { reason },
  });
  throw new AppError('INVALID_CODE', ADMIN_MESSAGES.secondFactorInvalid, {
    code: ADMIN_MESSAGES.secondFactorInvalid,
  });
}

/** The stored (sealed) authenticator secret: a request's user does not carry it. */
async function findTwoFactorSecret(deps: Deps, adminId: number): Promise<string | null> {
  return (await findUserById(deps.db, adminId))?.twoFactorSecret ?? null;
}

/** `secret` is the stored one, read by the caller (once per check). */
async function acceptTotp(
  deps: Deps,
  admin: SessionUser,
  secret: string | null,
  code: string,
): Promise<boolean> {
  if (!secret) return false;
  const step = findTotpStep(deps.secretBox.open(secret), code, deps.clock.now());
  return step !== null && claimTotpStep(deps.db, admin.id, step);
}

/** One code from the app confirms the secret; ten recovery codes are made and shown once. */
export async function confirmEnrolment(
  deps: Deps,
  context: RequestContext,
  session: AdminSession,
  code: string,
): Promise<TSecondFactorConfirmed> {
  const { admin } = session;
  if (admin.twoFactorEnrolledAt) {
    throw new AppError('CONFLICT', 'Two-factor authentication is already set up for this account.');
  }
  const secret = await findTwoFactorSecret(deps, admin.id);
  if (!secret) {
    throw new AppError('VALIDATION', 'Please start the set-up again: there is no code to confirm.');
  }
  await assertNotThrottled(deps, session);
  if (!(await acceptTotp(deps, admin, secret, code))) {
    return refuseCode(deps, context, admin, 'wrong code while enrolling');
  }

  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    generateCode(EMERGENCY_CODE_LENGTH),
  );
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await updateUser(
      tx,
      admin.id,
      { twoFactorEnabled: true, twoFactorEnrolledAt: now },
      deps.clock.now(),
    );
    await replaceRecoveryCodes(
      tx,
      admin.id,
      recoveryCodes.map((recoveryCode) => sha256(normalizeCode(recoveryCode))),
    );
    await markSessionSecondFactor(tx, session.sessionIdHash, now);
    await recordAccountEvent(tx, context, admin, {
      eventType: 'admin_2fa_enabled',
    });
    await recordAccountEvent(tx, context, admin, {
      eventType: 'admin_login',
      details: { method: 'totp' },
    });
  });
  return { recoveryCodes };
}

/** Each admin session checks a TOTP code or a recovery code once; each code works once. */
export async function verifySecondFactor(
  deps: Deps,
  context: RequestContext,
  session: AdminSession,
  code: string,
): Promise<TSecondFactorStatus> {
  const { admin } = session;
  if (!admin.twoFactorEnrolledAt) {
    throw new AppError('SECOND_FACTOR_REQUIRED', 'Please set up two-factor authentication first.');
  }
  await assertNotThrottled(deps, session);

  let method: 'totp' | 'recovery_code' | null = null;
  if (await acceptTotp(deps, admin, await findTwoFactorSecret(deps, admin.id), code)) {
    method = 'totp';
  } else if (normalizeCode(code).length === EMERGENCY_CODE_LENGTH) {
    if (await useRecoveryCode(deps.db, admin.id, sha256(normalizeCode(code)), deps.clock.now())) {
      method = 'recovery_code';
    }
  }
  if (!method) return refuseCode(deps, context, admin, 'wrong or already used code');

  await deps.db.transaction(async (tx) => {
    await markSessionSecondFactor(tx, session.sessionIdHash, deps.clock.now());
    await recordAccountEvent(tx, context, admin, {
      eventType: 'admin_2fa_verified',
      details: { method },
    });
    await recordAccountEvent(tx, context, admin, {
      eventType: 'admin_login',
      details: { method },
    });
  });
  return getSecondFactorStatus(deps, { ...session, isVerified: true });
}

/**
 * The operator's way back in for an admin who lost both their authenticator and their recovery
 * codes (`npm run admin:reset-2fa`): the admin is signed out and enrols afresh on their next
 * visit to /admin. Answers null when there is no such admin.
 */
export async function resetSecondFactorFromConsole(
  db: Db,
  username: string,
): Promise<UserRow | null> {
  const user = await findUserByUsername(db, username);
  if (!user?.isAdmin) return null;
  await db.transaction(async (tx) => {
    await clearSecondFactor(tx, user.id);
    await deleteSessionsOfUser(tx, user.id);
    await recordAudit(
      tx,
      { ip: 'server console', userAgent: undefined, deviceId: null },
      {
        eventType: 'admin_user_modified',
        userId: user.id,
        username: user.username,
        details: { change: 'second factor reset from the server console' },
      },
    );
  });
  return user;
}
