import { MESSAGES } from '../../../shared/domain/errors';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { TNewPasswordGiven } from '../../../shared/schemas/derived-password';
import { newPasswordColumns } from '../auth/derived-password';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  reserveAttempt,
} from '../audit/attempt-guard';
import { throttledMessage } from '../audit/throttle-messages';
import { deleteSessionsOfUser } from '../auth/sessions.repository';
import { breakGlassOwnerMail } from './emergency.mails';
import { rotateNextOfKinCode } from '../recipients/recipients.service';
import {
  codeNeeded,
  findCodeMatch,
  isUnusedLetterCode,
  type TCodeGiven,
} from '../recipients/access-codes';
import {
  findNextOfKinByEmail,
  findUserById,
  updateUser,
  type SessionUser,
} from '../users/users.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<
  AppDeps,
  'clock' | 'config' | 'db' | 'log' | 'mail' | 'uploadPartBytes' | 'videoStore'
>;

/** A session may use the dashboard variant only this soon after an access-code sign-in. */
export const DASHBOARD_BREAK_GLASS_WINDOW_MS = 15 * 60_000;

interface Pair {
  nextOfKin: SessionUser;
  owner: SessionUser;
}

/**
 * Break-glass, in one transaction: the owner's password changes, all their sessions end, the used
 * code is replaced by a new one emailed to the next of kin, the owner is emailed, both logs get
 * the event. A sealed card's code is not the server's to make: that card stays until the owner
 * makes a new one. Answers whether it stayed.
 */
async function performReset(
  deps: Deps,
  context: RequestContext,
  pair: Pair,
  input: { newPassword: TNewPasswordGiven; variant: 'code' | 'dashboard' },
): Promise<{ isCardKept: boolean }> {
  // Split in the browser when the owner has enhanced encryption on (a plain one is refused);
  // plain otherwise, as for every other new password.
  const stored = await newPasswordColumns(deps.db, pair.owner.id, input.newPassword);
  const isCardKept = await deps.db.transaction(async (tx) => {
    await updateUser(
      tx,
      pair.owner.id,
      { ...stored, firstLogin: false, hasSetPassword: true },
      deps.clock.now(),
    );
    await deleteSessionsOfUser(tx, pair.owner.id);
    const isSealed = (await findUserById(tx, pair.nextOfKin.id))?.accessCodeForm === 'proof';
    if (!isSealed) await rotateNextOfKinCode(deps, tx, { ...pair, isReplacement: true });
    await deps.mail.enqueue(tx, breakGlassOwnerMail({ ...pair, appUrl: deps.config.APP_URL }));
    const details = {
      message: `${pair.nextOfKin.firstName} ${pair.nextOfKin.lastName} (next of kin) reset the password with emergency access`,
      actor: `${pair.nextOfKin.firstName} ${pair.nextOfKin.lastName}, next of kin`,
      variant: input.variant,
    };
    await recordAccountEvent(tx, context, pair.owner, {
      eventType: 'break_glass',
      details,
    });
    await recordAudit(tx, context, {
      eventType: 'break_glass',
      userId: pair.nextOfKin.id,
      username: pair.nextOfKin.email,
      details,
    });
    return isSealed;
  });
  deps.mail.kick();
  return { isCardKept };
}

function successMessage(owner: SessionUser, reset: { isCardKept: boolean }) {
  return reset.isCardKept
    ? `The password has been reset. ${owner.firstName} has been signed out everywhere and emailed. Your emergency card still works until ${owner.firstName} makes you a new one.`
    : `The password has been reset. ${owner.firstName} has been signed out everywhere and emailed, and a new emergency code is on its way to you.`;
}

/**
 * The /auth form: next of kin's email, emergency code (its proof for a sealed card, else as
 * typed), new password.
 */
export async function breakGlassWithCode(
  deps: Deps,
  context: RequestContext,
  input: { email: string; given: TCodeGiven; newPassword: TNewPasswordGiven },
): Promise<{ message: string }> {
  const { db } = deps;
  const pairs = await findNextOfKinByEmail(db, input.email);
  // Counted per email and device and per email and address, never across the whole email: an
  // 80-bit code cannot be guessed anyway, and a stranger's wrong codes must not keep the real next
  // of kin out.
  const slot = await reserveAttempt(db, {
    policy: ATTEMPT_POLICIES.breakGlass,
    account: input.email,
    deviceId: context.deviceId,
    ip: context.ip,
    isFamiliarSource: await isFamiliarDevice(
      db,
      pairs.map((pair) => pair.nextOfKin.id),
      context.deviceId,
    ),
    now: deps.clock.now(),
  });

  if (!slot.isAllowed) {
    for (const pair of pairs) {
      await recordAccountEvent(db, context, pair.owner, {
        eventType: 'break_glass',
        successful: false,
        details: { reason: `throttled (${slot.reason})`, nextOfKinEmail: input.email },
      });
    }
    throw new AppError('RATE_LIMITED', throttledMessage(slot, deps.clock.now()));
  }

  const { match, checked, needsCode } = await findCodeMatch(
    pairs,
    (pair) => pair.nextOfKin,
    input.given,
  );
  if (!match && needsCode && checked === 0) {
    // A proof with no sealed card to check costs no guess: the browser sends the typed code next.
    await releaseAttempt(db, slot);
    throw codeNeeded();
  }
  if (!match) {
    if (pairs.length === 0) {
      await recordAudit(db, context, {
        eventType: 'break_glass',
        username: input.email,
        successful: false,
        details: { reason: 'no next of kin with this email' },
      });
    }
    for (const pair of pairs) {
      const details = { reason: 'wrong emergency code', nextOfKinEmail: input.email };
      await recordAccountEvent(db, context, pair.owner, {
        eventType: 'break_glass',
        successful: false,
        details,
      });
      await recordAudit(db, context, {
        eventType: 'break_glass',
        userId: pair.nextOfKin.id,
        username: pair.nextOfKin.email,
        successful: false,
        details,
      });
    }
    if (needsCode) throw codeNeeded();
    throw new AppError('INVALID_CODE', MESSAGES.breakGlassInvalid);
  }

  await releaseAttempt(db, slot);
  // A letter's code that nobody has signed in with yet opens nothing but joining.
  if (isUnusedLetterCode(match.nextOfKin)) {
    throw new AppError('INVALID_CODE', MESSAGES.letterCodeUnused);
  }
  const reset = await performReset(deps, context, match, {
    newPassword: input.newPassword,
    variant: 'code',
  });
  return { message: successMessage(match.owner, reset) };
}

/**
 * The dashboard variant (no code in the body): only for a next-of-kin session that signed in with
 * its access code in the last 15 minutes, and only for that next of kin's own primary user.
 */
export async function breakGlassFromSession(
  deps: Deps,
  context: RequestContext,
  input: {
    user: SessionUser;
    sessionMethod: string | null;
    sessionCreatedAt: Date | null;
    email: string;
    newPassword: TNewPasswordGiven;
  },
): Promise<{ message: string }> {
  const { user } = input;
  if (user.category !== 'next_of_kin' || user.createdById === null) {
    throw new AppError('FORBIDDEN', 'Emergency access is only for a next of kin.');
  }
  const owner = await findUserById(deps.db, user.createdById);
  const isFreshCodeSession =
    input.sessionMethod === 'email_access_code' &&
    input.sessionCreatedAt !== null &&
    deps.clock.now().getTime() - input.sessionCreatedAt.getTime() <=
      DASHBOARD_BREAK_GLASS_WINDOW_MS;
  const isOwnEmail = input.email === user.email.toLowerCase();

  if (!owner || !isFreshCodeSession || !isOwnEmail) {
    if (owner) {
      await recordAccountEvent(deps.db, context, owner, {
        eventType: 'break_glass',
        successful: false,
        details: {
          reason: !isOwnEmail ? 'email is not the signed-in next of kin' : 'session too old',
          variant: 'dashboard',
        },
      });
    }
    throw new AppError(
      'FORBIDDEN',
      isOwnEmail ? MESSAGES.breakGlassSessionTooOld : 'Please enter your own email address.',
    );
  }

  const reset = await performReset(
    deps,
    context,
    { nextOfKin: user, owner },
    { newPassword: input.newPassword, variant: 'dashboard' },
  );
  return { message: successMessage(owner, reset) };
}
