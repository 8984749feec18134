import type { DbOrTx } from '../../db/client';
import { lockForTransaction } from '../../db/locks';
import {
  deleteFailedAttempts,
  findFailedAttempts,
  insertFailedAttempts,
} from './failed-attempts.repository';
import { hasSucceededOnDevice, isDeviceOf } from './familiar-devices.repository';

/**
 * Guards a credential check against one account (a username, a next of kin's or recipient's
 * email) without letting a stranger lock the rightful person out:
 *
 * - **Per source.** Failures are counted per account *and* device, and per account and address;
 *   a source past its limit waits until its oldest failure ages out. A stranger exhausts only
 *   their own sources.
 * - **Per account, by delay, not lock** (passwords and reset codes only). Failures from all
 *   sources slow down unfamiliar sources exponentially, to at most `maxDelayMs` after the
 *   account's latest failure, and are told exactly how long. 80-bit codes have no such delay:
 *   it buys nothing against guessing them, and a stranger timing one failure a minute could keep
 *   the rightful person waiting for ever.
 * - **Familiar sources are exempt** from the account-wide delay: the owner's own device, a device
 *   this person signed in on before or reset the password on by email. A caller may also exempt a
 *   source that proved it reads the account's mail (a reset code asked for on that device).
 * - **Exact under concurrency.** An attempt is recorded as a failure *before* the credential is
 *   checked, under a lock on the account, and withdrawn if it succeeds; parallel attempts can
 *   never all see room.
 */
export interface AttemptPolicy {
  scope: string;
  perSource: { max: number; windowMs: number };
  perAddress: { max: number; windowMs: number };
  /** The account-wide delay; null where guessing is hopeless anyway (80-bit codes). */
  account: { freeFailures: number; windowMs: number; maxDelayMs: number } | null;
}

/** A sign-in form's limits per source (a password, a recipient's access code). */
const SIGN_IN_LIMITS = {
  perSource: { max: 10, windowMs: 15 * 60_000 },
  perAddress: { max: 30, windowMs: 15 * 60_000 },
} satisfies Pick<AttemptPolicy, 'perSource' | 'perAddress'>;

/** A recovery form's limits per source (break-glass, a reset code): fewer tries than a sign-in. */
const RECOVERY_LIMITS = {
  perSource: { max: 5, windowMs: 15 * 60_000 },
  perAddress: { max: 20, windowMs: 60 * 60_000 },
} satisfies Pick<AttemptPolicy, 'perSource' | 'perAddress'>;

export const ATTEMPT_POLICIES = {
  login: {
    scope: 'login',
    ...SIGN_IN_LIMITS,
    account: { freeFailures: 10, windowMs: 60 * 60_000, maxDelayMs: 60_000 },
  },
  breakGlass: { scope: 'break_glass', ...RECOVERY_LIMITS, account: null },
  resetCode: {
    scope: 'reset_code',
    ...RECOVERY_LIMITS,
    account: { freeFailures: 5, windowMs: 60 * 60_000, maxDelayMs: 60_000 },
  },
  accessCode: { scope: 'access_code', ...SIGN_IN_LIMITS, account: null },
} satisfies Record<string, AttemptPolicy>;

/** How a password reset with an emailed code is described in the audit log. */
export const RESET_BY_EMAIL = 'emailed reset code';

export type AttemptReservation =
  | { isAllowed: true; ids: number[] }
  | { isAllowed: false; retryAt: Date; reason: 'source' | 'address' | 'account' };

function retryAfterWindow(times: Date[], max: number, windowMs: number): Date | null {
  if (times.length < max) return null;
  return new Date(times[times.length - max]!.getTime() + windowMs);
}

/** The account-wide delay after `count` failures: 1 s, 2 s, 4 s … up to the cap. */
export function accountDelayMs(
  count: number,
  policy: NonNullable<AttemptPolicy['account']>,
): number {
  if (count < policy.freeFailures) return 0;
  return Math.min(2 ** (count - policy.freeFailures) * 1000, policy.maxDelayMs);
}

/** Takes a slot for one credential check, or says until when this source must wait. */
export async function reserveAttempt(
  db: DbOrTx,
  input: {
    policy: AttemptPolicy;
    account: string;
    deviceId: string | null;
    ip: string;
    isFamiliarSource: boolean;
    /** This source proved it reads the account's mail: no account-wide delay for it. */
    skipsAccountDelay?: boolean;
    now: Date;
  },
): Promise<AttemptReservation> {
  const { policy, now } = input;
  const keys = {
    account: [`${policy.scope}:account`, input.account],
    source: [`${policy.scope}:device`, `${input.account}|${input.deviceId ?? 'none'}`],
    address: [`${policy.scope}:ip`, `${input.account}|${input.ip}`],
  } as const;
  const longest = Math.max(
    policy.perSource.windowMs,
    policy.perAddress.windowMs,
    policy.account?.windowMs ?? 0,
  );

  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'attemptGuard', keys.account[1]);
    const rows = await findFailedAttempts(tx, {
      kinds: [keys.account[0], keys.source[0], keys.address[0]],
      keys: [keys.account[1], keys.source[1], keys.address[1]],
      since: new Date(now.getTime() - longest),
    });
    const timesOf = (key: readonly [string, string], windowMs: number) =>
      rows
        .filter((row) => row.kind === key[0] && row.key === key[1])
        .map((row) => row.at)
        .filter((at) => at.getTime() > now.getTime() - windowMs);

    const source = retryAfterWindow(
      timesOf(keys.source, policy.perSource.windowMs),
      policy.perSource.max,
      policy.perSource.windowMs,
    );
    if (source) return { isAllowed: false, retryAt: source, reason: 'source' };
    const address = retryAfterWindow(
      timesOf(keys.address, policy.perAddress.windowMs),
      policy.perAddress.max,
      policy.perAddress.windowMs,
    );
    if (address && !input.isFamiliarSource) {
      return { isAllowed: false, retryAt: address, reason: 'address' };
    }
    if (policy.account && !input.isFamiliarSource && !input.skipsAccountDelay) {
      const accountTimes = timesOf(keys.account, policy.account.windowMs);
      const delay = accountDelayMs(accountTimes.length, policy.account);
      const last = accountTimes[accountTimes.length - 1];
      if (delay > 0 && last && last.getTime() + delay > now.getTime()) {
        return { isAllowed: false, retryAt: new Date(last.getTime() + delay), reason: 'account' };
      }
    }

    const ids = await insertFailedAttempts(tx, [
      ...(policy.account ? [{ kind: keys.account[0], key: keys.account[1], at: now }] : []),
      { kind: keys.source[0], key: keys.source[1], at: now },
      { kind: keys.address[0], key: keys.address[1], at: now },
    ]);
    return { isAllowed: true, ids };
  });
}

/** The credential was right: the reserved failure rows are withdrawn. */
export async function releaseAttempt(db: DbOrTx, reservation: { ids: number[] }): Promise<void> {
  if (reservation.ids.length === 0) return;
  await deleteFailedAttempts(db, reservation.ids);
}

/**
 * A familiar source: a device bound to this account (the owner's own), one this person has
 * signed in on successfully before, or one they reset the password on with an emailed code (a
 * stranger cannot, so that device is theirs).
 */
export async function isFamiliarDevice(
  db: DbOrTx,
  userIds: readonly number[],
  deviceId: string | null,
): Promise<boolean> {
  if (!deviceId || userIds.length === 0) return false;
  if (await isDeviceOf(db, userIds, deviceId)) return true;
  return hasSucceededOnDevice(db, { userIds, deviceId, resetMethod: RESET_BY_EMAIL });
}

/** The real wait, for a message: '45 seconds', '1 minute', '12 minutes'. */
export function describeRetry(retryAt: Date, now: Date): string {
  const seconds = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
