import type { TAuthProvider, TLoginMethod } from '../../../shared/domain/enums';
import { MESSAGES } from '../../../shared/domain/errors';
import type { TLoginBody, TRegisterBody } from '../../../shared/schemas/auth';
import type { TConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { hashSecret, randomToken, sha256 } from '../../lib/crypto';
import { sessionLifetimeFor } from '../../plugins/request-context';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  reserveAttempt,
} from '../audit/attempt-guard';
import { throttledError, WAY_PAST_DELAY } from '../audit/throttle-messages';
import {
  bindPrimaryDevice,
  findPrimaryAccountOnDevice,
  findPrimaryDeviceOfUser,
  type DeviceRow,
} from '../devices/devices.repository';
import {
  findUserByUsername,
  hasAnyAdmin,
  insertUser,
  isPrimaryEmailTaken,
  type UserRow,
  type SessionUser,
} from '../users/users.repository';
import { deleteSession, insertSession } from './sessions.repository';
import { lockForTransaction } from '../../db/locks';
import { isPasswordRight, passwordGiven, passwordNeeded } from './derived-password';

type RegisterInput = Omit<TRegisterBody, 'category' | 'createdById'>;
type LoginInput = Required<Pick<TLoginBody, 'username' | 'password'>> &
  Pick<TLoginBody, 'passwordProof'>;

export interface SignedIn {
  user: SessionUser;
  /** The device as it is after the sign-in (possibly just bound). */
  device: DeviceRow;
  token: string;
  expiresAt: Date;
}

/** A new 256-bit session id for every sign-in; only its hash is stored. */
export async function createSession(
  db: DbOrTx,
  user: SessionUser,
  device: DeviceRow,
  now: Date,
  method: TLoginMethod = 'username_password',
) {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + sessionLifetimeFor(user));
  await insertSession(db, {
    idHash: sha256(token),
    userId: user.id,
    deviceId: device.id,
    expiresAt,
    method,
  });
  return { token, expiresAt };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause ?? error;
  const pgError = cause as { code?: string; constraint?: string; message?: string };
  return (
    pgError.code === '23505' &&
    (pgError.constraint === constraint || !!pgError.message?.includes(constraint))
  );
}

/** What a new primary account is made of, however it signs up (a password or a provider). */
export interface NewPrimaryAccount {
  username: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  email: string;
  tosAcceptedAt: Date;
  authProvider: TAuthProvider;
}

/**
 * Creates a primary account bound to this device and signs it in, as one transaction:
 * registration and external sign-up both come through here. `afterInsert` adds what
 * belongs to the account from the start (an external identity).
 */
export async function createPrimaryAccount(
  db: Db,
  config: TConfig,
  context: RequestContext,
  input: {
    device: DeviceRow;
    account: NewPrimaryAccount;
    method?: TLoginMethod;
    auditDetails?: Record<string, unknown>;
    afterInsert?: (tx: DbOrTx, user: UserRow) => Promise<void>;
    now: Date;
  },
): Promise<SignedIn> {
  const { device, account } = input;
  try {
    return await db.transaction(async (tx) => {
      await lockForTransaction(tx, 'registration');
      if (await findPrimaryAccountOnDevice(tx, device.id)) {
        throw new AppError('DEVICE_HAS_PRIMARY_ACCOUNT', MESSAGES.deviceHasPrimaryAccount);
      }
      const isAdmin = config.ADMIN_EMAIL
        ? account.email === config.ADMIN_EMAIL && !(await hasAnyAdmin(tx))
        : !(await hasAnyAdmin(tx));
      const hasPassword = account.passwordHash !== null;

      const user = await insertUser(tx, {
        username: account.username,
        passwordHash: account.passwordHash,
        firstName: account.firstName,
        lastName: account.lastName,
        email: account.email,
        category: 'primary',
        isPrimary: true,
        isAdmin,
        role: isAdmin ? 'super_admin' : 'user',
        // The admin account is created with two-factor required; it enrols on first /admin visit.
        twoFactorEnabled: isAdmin,
        tosAccepted: true,
        tosAcceptedAt: account.tosAcceptedAt,
        // An owner who just chose a password is not asked again; a provider sign-up is.
        firstLogin: !hasPassword,
        hasSetPassword: hasPassword,
        authProvider: account.authProvider,
      });
      await input.afterInsert?.(tx, user);
      await bindPrimaryDevice(tx, device.id, user.id);
      const session = await createSession(tx, user, device, input.now, input.method);
      const boundDevice = { ...device, userId: user.id, isPrimary: true };
      await recordAccountEvent(tx, context, user, {
        eventType: 'register',
        details: { isAdmin, ...input.auditDetails },
      });
      return { user, device: boundDevice, ...session };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_username_lower_idx')) {
      throw new AppError('USERNAME_TAKEN', MESSAGES.usernameTaken, {
        username: MESSAGES.usernameTaken,
      });
    }
    if (isUniqueViolation(error, 'users_primary_email_idx')) {
      throw new AppError('EMAIL_TAKEN', MESSAGES.emailTaken, { email: MESSAGES.emailTaken });
    }
    throw error;
  }
}

export async function register(
  db: Db,
  config: TConfig,
  context: RequestContext,
  input: { device: DeviceRow; body: RegisterInput; now: Date },
): Promise<SignedIn> {
  const { device, body } = input;

  if (await findPrimaryAccountOnDevice(db, device.id)) {
    throw new AppError('DEVICE_HAS_PRIMARY_ACCOUNT', MESSAGES.deviceHasPrimaryAccount);
  }
  if (await findUserByUsername(db, body.username)) {
    throw new AppError('USERNAME_TAKEN', MESSAGES.usernameTaken, {
      username: MESSAGES.usernameTaken,
    });
  }
  if (await isPrimaryEmailTaken(db, body.email)) {
    throw new AppError('EMAIL_TAKEN', MESSAGES.emailTaken, { email: MESSAGES.emailTaken });
  }

  return createPrimaryAccount(db, config, context, {
    device,
    account: {
      username: body.username,
      passwordHash: await hashSecret(body.password),
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      tosAcceptedAt: new Date(body.tosAcceptedAt),
      authProvider: 'local',
    },
    now: input.now,
  });
}

/**
 * Username and password, every failure audited. Failures are counted per account and device and
 * slow unfamiliar devices by seconds rather than locking the account: the owner on
 * a device of their own is never kept out by a stranger's guesses.
 */
/** A device's sign-in as typed there: the name and the password, or its sign-in half. */
export interface TCredentials {
  device: DeviceRow;
  username: string;
  password: string;
  /** The password's sign-in half, for an account with enhanced encryption on. */
  passwordProof?: string | undefined;
}

export async function checkCredentials(
  db: Db,
  context: RequestContext,
  input: TCredentials & { now: Date },
): Promise<UserRow> {
  const user = await findUserByUsername(db, input.username);
  const given = passwordGiven(input);
  // Asked for before any attempt is counted: nothing was checked.
  if (given.form === 'proof' && user?.passwordHash && !user.passwordKdf) throw passwordNeeded();
  const isFamiliarSource =
    user !== undefined && (await isFamiliarDevice(db, [user.id], input.device.id));
  const slot = await reserveAttempt(db, {
    policy: ATTEMPT_POLICIES.login,
    account: user ? `user:${user.id}` : `name:${input.username.toLowerCase().slice(0, 254)}`,
    deviceId: input.device.id,
    ip: context.ip,
    isFamiliarSource,
    now: input.now,
  });
  const auditFailure = (reason: string) =>
    recordAudit(db, context, {
      eventType: 'login_failed',
      userId: user?.id ?? null,
      username: user?.username ?? input.username.slice(0, 254),
      successful: false,
      details: { reason },
    });
  if (!slot.isAllowed) {
    await auditFailure(`throttled (${slot.reason})`);
    throw throttledError(slot, WAY_PAST_DELAY.signIn, input.now);
  }

  const isRight = await isPasswordRight(user, given);

  if (!user || !isRight) {
    await auditFailure(user ? 'wrong password' : 'unknown username');
    throw new AppError('INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
  }
  await releaseAttempt(db, slot);
  return user;
}

/**
 * The device rule, for every way of signing in: a primary account signs in only on its
 * primary device (or a device added to it); an account whose device was reset may
 * bind to this one unless it holds another primary account.
 */
export async function assertMaySignInHere(
  db: Db,
  context: RequestContext,
  input: { user: UserRow; device: DeviceRow; auditDetails?: Record<string, unknown> },
): Promise<void> {
  const { user, device } = input;
  if (!user.isPrimary) return;
  const primaryDevice = await findPrimaryDeviceOfUser(db, user.id);
  const isOwnDevice = device.userId === user.id;
  if (primaryDevice && primaryDevice.id !== device.id && !isOwnDevice) {
    await recordAccountEvent(db, context, user, {
      eventType: 'login_failed',
      successful: false,
      details: { reason: 'not the primary device', ...input.auditDetails },
    });
    throw new AppError('NOT_PRIMARY_DEVICE', MESSAGES.notPrimaryDevice);
  }
  if (!primaryDevice && (await findPrimaryAccountOnDevice(db, device.id))) {
    throw new AppError('DEVICE_HAS_PRIMARY_ACCOUNT', MESSAGES.deviceHasPrimaryAccount);
  }
}

/**
 * The session of a sign-in whose credentials and device were checked: replaces the browser's
 * previous session, binds a reset account to this device, audits `login`. Runs in the caller's
 * transaction, so whatever else the sign-in changes commits with it.
 */
export async function openSession(
  tx: DbOrTx,
  context: RequestContext,
  input: {
    user: UserRow;
    device: DeviceRow;
    previousSessionIdHash: string | null;
    method?: TLoginMethod;
    auditDetails?: Record<string, unknown>;
    now: Date;
  },
): Promise<SignedIn> {
  const { user, device } = input;
  if (input.previousSessionIdHash) await deleteSession(tx, input.previousSessionIdHash);
  let signedInDevice = device;
  if (user.isPrimary && !(await findPrimaryDeviceOfUser(tx, user.id))) {
    // The account's device was reset: it binds to the device it signs in on.
    await bindPrimaryDevice(tx, device.id, user.id);
    signedInDevice = { ...device, userId: user.id, isPrimary: true };
  }
  const session = await createSession(tx, user, device, input.now, input.method);
  await recordAccountEvent(tx, context, user, {
    eventType: 'login',
    ...(input.auditDetails ? { details: input.auditDetails } : {}),
  });
  return { user, device: signedInDevice, ...session };
}

/**
 * Credentials are checked before the device, so a wrong password never reveals where an account
 * is bound, and no message names another account.
 */
export async function login(
  db: Db,
  context: RequestContext,
  input: {
    device: DeviceRow;
    body: LoginInput;
    previousSessionIdHash: string | null;
    now: Date;
  },
): Promise<SignedIn> {
  const { device, body, now } = input;
  const user = await checkCredentials(db, context, {
    device,
    username: body.username,
    password: body.password,
    passwordProof: body.passwordProof,
    now,
  });
  await assertMaySignInHere(db, context, { user, device });
  return db.transaction((tx) =>
    openSession(tx, context, {
      user,
      device,
      previousSessionIdHash: input.previousSessionIdHash,
      now,
    }),
  );
}

export async function logout(
  db: Db,
  context: RequestContext,
  input: { user: SessionUser | null; sessionIdHash: string | null },
): Promise<void> {
  if (!input.user || !input.sessionIdHash) return;
  await deleteSession(db, input.sessionIdHash);
  await recordAccountEvent(db, context, input.user, {
    eventType: 'logout',
  });
}
