import { hasCloudSync } from '../../../shared/domain/plan-limits';
import {
  ENCRYPTION_MESSAGES,
  type TEncryptionState,
  type TRenewPasswordWrapBody,
  type TTurnOnEncryptionBody,
} from '../../../shared/schemas/encryption';
import type { TKdfParams } from '../../../shared/sealing';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { endRecovery } from '../escrow/key-recovery.repository';
import { timingSafeEqual } from 'node:crypto';
import { hashSecret, verifySecret } from '../../lib/crypto';
import { signInHalfOf } from '../auth/derived-password';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { ATTEMPT_POLICIES, releaseAttempt, reserveAttempt } from '../audit/attempt-guard';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import { throttledMessage } from '../audit/throttle-messages';
import { findUserById, updateUser, type SessionUser } from '../users/users.repository';
import {
  findAccountKeysAndPasswordKdf,
  hasAccountKeys,
  insertAccountKeys,
  updatePasswordWrap,
  type AccountKeysRow,
} from './encryption.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'config' | 'db'>;

/**
 * Whether the account may turn it on: a plan with cloud sync (it seals cloud copies), where the
 * operator has not switched the offer off.
 */
function isOffered(deps: Deps, user: SessionUser): boolean {
  return deps.config.ENHANCED_ENCRYPTION && hasCloudSync(user);
}

/** A reset gives the password a new split (a new salt); the wrap keeps the old one's until renewed. */
export function isSameKdf(
  a: TKdfParams | null | undefined,
  b: TKdfParams | null | undefined,
): boolean {
  return a?.algorithm === b?.algorithm && a?.iterations === b?.iterations && a?.salt === b?.salt;
}

function toOnState(
  keys: AccountKeysRow,
  userPasswordKdf: TKdfParams | null | undefined,
): TEncryptionState {
  return {
    state: 'on',
    turnedOnAt: keys.createdAt.toISOString(),
    passwordWrap: keys.passwordWrap,
    passwordKdf: keys.passwordKdf,
    isPasswordWrapCurrent: isSameKdf(keys.passwordKdf, userPasswordKdf),
    recoveryWrap: keys.recoveryWrap,
    recoveryKdf: keys.recoveryKdf,
  };
}

/** GET /api/encryption: the owner's state, with the wraps their devices open the account key from. */
export async function getEncryptionState(deps: Deps, actor: Actor): Promise<TEncryptionState> {
  requireAccess(actor, Permission.EncryptionRead);
  const found = await findAccountKeysAndPasswordKdf(deps.db, actor.user.id);
  if (!found) return { state: 'off', isOffered: isOffered(deps, actor.user) };
  return toOnState(found.keys, found.passwordKdf);
}

/**
 * PUT /api/encryption/password-wrap: after an emailed, admin or next-of-kin reset, the owner's
 * browser (holding the account key) wraps it under the new password; only while the stored wrap
 * is of an earlier password, and only with the current password's proof.
 */
export async function renewPasswordWrap(
  deps: Deps,
  context: RequestContext & { deviceId: string },
  input: { actor: Actor; body: TRenewPasswordWrapBody },
): Promise<TEncryptionState> {
  const { actor, body } = input;
  requireAccess(actor, Permission.EncryptionRead);
  requireAccess(actor, Permission.EncryptionManage);
  const found = await findAccountKeysAndPasswordKdf(deps.db, actor.user.id);
  if (!found) throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.notOn);
  const { keys, passwordKdf: userKdf } = found;
  if (!userKdf || isSameKdf(keys.passwordKdf, userKdf)) {
    throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.passwordWrapCurrent);
  }
  await requireOwnPassword(
    deps,
    context,
    actor.user,
    body.passwordProof,
    'renewing the password’s key',
  );
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await updatePasswordWrap(tx, actor.user.id, {
      passwordWrap: body.passwordWrap,
      passwordKdf: userKdf,
      updatedAt: now,
    });
    // Back in another way: a key recovery waiting on the next of kin's card is not needed.
    await endRecovery(tx, { ownerId: actor.user.id, status: 'closed', now });
    await recordAudit(tx, context, {
      eventType: 'encryption_password_renewed',
      userId: actor.user.id,
      username: actor.user.username,
      details: { message: 'The new password opens the sealed messages again' },
    });
  });
  return toOnState(
    { ...keys, passwordWrap: body.passwordWrap, passwordKdf: userKdf, updatedAt: now },
    userKdf,
  );
}

/**
 * The owner's password once more (they are at the device), counted with this account's sign-ins
 * so it cannot be guessed here faster than at sign-in.
 */
async function requireOwnPassword(
  deps: Deps,
  context: RequestContext & { deviceId: string },
  user: SessionUser,
  password: string,
  /** What the password was asked for, in the log of a wrong one. */
  purpose = 'turning on enhanced encryption',
): Promise<void> {
  const slot = await reserveAttempt(deps.db, {
    policy: ATTEMPT_POLICIES.login,
    account: `user:${user.id}`,
    deviceId: context.deviceId,
    ip: context.ip,
    isFamiliarSource: true,
    now: deps.clock.now(),
  });
  if (!slot.isAllowed) throw new AppError('RATE_LIMITED', throttledMessage(slot, deps.clock.now()));
  // A request's user does not carry the password hash: read it for this check only.
  const stored = (await findUserById(deps.db, user.id))?.passwordHash ?? null;
  if (stored === null || !(await verifySecret(stored, password))) {
    await recordAudit(deps.db, context, {
      eventType: 'login_failed',
      userId: user.id,
      username: user.username,
      successful: false,
      details: { reason: `wrong password when ${purpose}` },
    });
    throw new AppError('VALIDATION', ENCRYPTION_MESSAGES.wrongPassword, {
      password: ENCRYPTION_MESSAGES.wrongPassword,
    });
  }
  await releaseAttempt(deps.db, slot);
}

function isSameText(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * POST /api/encryption: keeps the account key's two wraps (the server cannot open either) and
 * from then on takes only sealed cloud copies. There is no turning it off in this phase.
 */
export async function turnOnEncryption(
  deps: Deps,
  context: RequestContext & { deviceId: string },
  input: { actor: Actor; body: TTurnOnEncryptionBody },
): Promise<TEncryptionState> {
  const { actor, body } = input;
  requireAccess(actor, Permission.EncryptionRead);
  requireAccess(actor, Permission.EncryptionManage);
  const owner = actor.user;
  if (await hasAccountKeys(deps.db, owner.id)) {
    throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.alreadyOn);
  }
  if (!isOffered(deps, owner)) throw new AppError('FORBIDDEN', ENCRYPTION_MESSAGES.notOnPlan);
  await requireOwnPassword(deps, context, owner, body.password);
  // From now on the password itself is never sent: the account signs in with this split of it.
  const proof = await signInHalfOf(body.password, body.passwordKdf);
  if (!isSameText(proof, body.passwordProof)) {
    throw new AppError('VALIDATION', ENCRYPTION_MESSAGES.badWrap);
  }
  const passwordHash = await hashSecret(body.passwordProof);

  const now = deps.clock.now();
  const stored = await deps.db.transaction(async (tx) => {
    const row = await insertAccountKeys(tx, {
      userId: owner.id,
      passwordWrap: body.passwordWrap,
      passwordKdf: body.passwordKdf,
      recoveryWrap: body.recoveryWrap,
      recoveryKdf: body.recoveryKdf,
      createdAt: now,
      updatedAt: now,
    });
    if (row) {
      await updateUser(tx, owner.id, { passwordHash, passwordKdf: body.passwordKdf }, now);
      await recordAudit(tx, context, {
        eventType: 'enhanced_encryption_turned_on',
        userId: owner.id,
        username: owner.username,
      });
    }
    return row;
  });
  // Another window turned it on a moment before: its keys stand.
  if (!stored) throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.alreadyOn);
  return toOnState(stored, body.passwordKdf);
}

/**
 * The one rule for the form of an account's new cloud copies: sealed once enhanced encryption is
 * on, plain before (a sealed copy nobody holds a key for would be lost). The owner's devices seal
 * under the account key; a phone under its pairing key only.
 */
export async function requireCopyForm(
  deps: Pick<Deps, 'db'>,
  copy: {
    userId: number;
    sealedKeyWrap: string | null;
    pairingId: string | null;
    pairingKeyWrap: string | null;
  },
): Promise<void> {
  const isOn = await hasAccountKeys(deps.db, copy.userId);
  const isFromPhone = copy.pairingId !== null;
  const isSealed = (isFromPhone ? copy.pairingKeyWrap : copy.sealedKeyWrap) !== null;
  if (isSealed && !isOn) {
    throw new AppError(
      'CONFLICT',
      isFromPhone ? ENCRYPTION_MESSAGES.phoneSealNotOn : ENCRYPTION_MESSAGES.notOn,
    );
  }
  if (!isSealed && isOn) {
    throw new AppError(
      'CONFLICT',
      isFromPhone ? ENCRYPTION_MESSAGES.phoneMustSeal : ENCRYPTION_MESSAGES.sealedOnly,
    );
  }
}

/**
 * A phone's video, checked before it is indexed so a refused one leaves nothing behind: sealed
 * under a pairing key exactly when the account seals, and only through a pairing that has one.
 */
export async function requirePhoneCopyForm(
  deps: Pick<Deps, 'db'>,
  input: { ownerId: number; pairingKeyWrapOfPairing: string | null; isSealed: boolean },
): Promise<void> {
  const isOn = await hasAccountKeys(deps.db, input.ownerId);
  if (isOn && input.pairingKeyWrapOfPairing === null) {
    throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.phoneNeedsNewPairing);
  }
  if (isOn && !input.isSealed) throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.phoneMustSeal);
  if (!isOn && input.isSealed) throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.phoneSealNotOn);
}

/** A new pairing carries the pairing key's wrap exactly when the account seals its copies. */
export async function requirePairingKeyRule(
  deps: Pick<Deps, 'db'>,
  ownerId: number,
  pairingKey: unknown,
): Promise<void> {
  const isOn = await hasAccountKeys(deps.db, ownerId);
  if (isOn && !pairingKey) throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.pairingKeyRequired);
  if (!isOn && pairingKey) {
    throw new AppError('VALIDATION', ENCRYPTION_MESSAGES.pairingKeyNotOn, {
      pairingKey: ENCRYPTION_MESSAGES.pairingKeyNotOn,
    });
  }
}
