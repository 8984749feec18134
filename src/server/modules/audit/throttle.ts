import type { TAuditEventType } from '../../../shared/domain/enums';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { countFailures } from './audit.repository';
import { consumeAttempt } from './failed-attempts.repository';

/**
 * Per-account throttling, counted from the audit log so that every app server sees the same
 * numbers. A stranger's failures on their own device lock only that device out;
 * the per-account ceiling stops a distributed attack without locking the owner out for long.
 */
export const ACCOUNT_LIMITS = {
  perDevice: { max: 10, windowMs: 15 * 60_000 },
  perAccount: { max: 100, windowMs: 60 * 60_000 },
} as const;

export async function assertAccountNotThrottled(
  db: DbOrTx,
  options: {
    eventType: TAuditEventType;
    userId: number;
    deviceId: string;
    message: string;
    now: Date;
  },
): Promise<void> {
  const now = options.now.getTime();
  const [fromDevice, overall] = await Promise.all([
    countFailures(db, {
      eventType: options.eventType,
      userId: options.userId,
      deviceId: options.deviceId,
      since: new Date(now - ACCOUNT_LIMITS.perDevice.windowMs),
    }),
    countFailures(db, {
      eventType: options.eventType,
      userId: options.userId,
      since: new Date(now - ACCOUNT_LIMITS.perAccount.windowMs),
    }),
  ]);
  if (fromDevice >= ACCOUNT_LIMITS.perDevice.max || overall >= ACCOUNT_LIMITS.perAccount.max) {
    throw new AppError('RATE_LIMITED', options.message);
  }
}

/** A limit on failures (or requests) per key, counted in failed_attempts. */
export interface KeyLimit {
  kind: string;
  max: number;
  windowMs: number;
}

export const KEY_LIMITS = {
  resetRequestPerEmail: { kind: 'reset_request:email', max: 3, windowMs: 15 * 60_000 },
  deviceMovePerAccount: { kind: 'device_move:account', max: 5, windowMs: 15 * 60_000 },
  deviceAddPerAccount: { kind: 'device_add:account', max: 5, windowMs: 15 * 60_000 },
} satisfies Record<string, KeyLimit>;

/** Takes one of the attempts a key may make in its window, atomically; or says when to retry. */
export function consumeKeyAttempt(
  db: DbOrTx,
  limit: KeyLimit,
  key: string,
  now: Date,
): Promise<{ isAllowed: boolean; retryAt: Date | null }> {
  return consumeAttempt(db, {
    kind: limit.kind,
    key,
    max: limit.max,
    windowMs: limit.windowMs,
    now,
  });
}

/** 'in 1 minute', 'in 12 minutes': the real wait, rounded up, for a message. */
export function describeWait(retryAt: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 60_000));
  return minutes === 1 ? 'in 1 minute' : `in ${minutes} minutes`;
}
