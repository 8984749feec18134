import { MESSAGES } from '../../../shared/domain/errors';
import { hasCloudSync, limitsFor } from '../../../shared/domain/plan-limits';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { KEY_LIMITS } from '../audit/throttle';
import {
  checkCredentials,
  createSession,
  type SignedIn,
  type TCredentials,
} from '../auth/auth.service';
import { addOneTimeCode, retireOneTimeCodes } from '../auth/one-time-codes.repository';
import { deviceAddCodeMail, deviceAddedMail, primaryDeviceChangedMail } from './devices.mails';
import type { SessionUser } from '../users/users.repository';
import { checkDeviceCode, emailDeviceCode } from './device-move.service';
import {
  bindSecondaryDevice,
  countDevicesOfUser,
  findPrimaryDeviceOfUser,
  makeDevicePrimary,
  type DeviceRow,
} from './devices.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'mail'>;

export const MORE_DEVICES_MESSAGES = {
  freePlan:
    'Using more than one device is part of the Standard, Premium and Professional plans. You can move your account to this device instead.',
  alreadyAdded: 'This device is already one of your devices. Please sign in.',
  deviceTaken: MESSAGES.deviceHasPrimaryAccount,
  setPrimaryDone: 'Device set as primary. Your content will begin syncing.',
  setPrimaryFree:
    'Making another device your primary device is part of the paid plans (Premium Feature).',
  setPrimaryNotYours: 'This device is not one of your devices.',
  alreadyPrimary: 'This device is already your primary device.',
  codeInvalid: MESSAGES.deviceMoveCodeInvalid,
} as const;

function deviceLimitMessage(max: number): string {
  return `Your plan allows ${max} devices, and all of them are in use. An administrator can remove one you no longer use, or a larger plan allows more.`;
}

/** Paid plans may use more devices, up to the plan's limit, counting the primary one. */
async function assertCanAdd(deps: Deps, user: SessionUser, device: DeviceRow): Promise<void> {
  if (!user.isPrimary) throw new AppError('FORBIDDEN', MORE_DEVICES_MESSAGES.setPrimaryNotYours);
  if (device.userId === user.id) throw new AppError('CONFLICT', MORE_DEVICES_MESSAGES.alreadyAdded);
  if (device.userId !== null) {
    throw new AppError('DEVICE_HAS_PRIMARY_ACCOUNT', MORE_DEVICES_MESSAGES.deviceTaken);
  }
  const { maxDevices } = limitsFor(user);
  if (maxDevices !== null && maxDevices <= 1) {
    throw new AppError('UPGRADE_REQUIRED', MORE_DEVICES_MESSAGES.freePlan);
  }
  if (maxDevices !== null && (await countDevicesOfUser(deps.db, user.id)) >= maxDevices) {
    throw new AppError('UPGRADE_REQUIRED', deviceLimitMessage(maxDevices));
  }
}

/** Step 1: the right password on a new device → a code to the account's email. */
export async function requestDeviceAdd(
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
  await assertCanAdd(deps, user, input.device);
  return emailDeviceCode(deps, {
    user,
    device: input.device,
    purpose: 'device_add',
    limit: KEY_LIMITS.deviceAddPerAccount,
    store: addOneTimeCode,
    makeMail: (code) =>
      deviceAddCodeMail({ owner: user, code, deviceName: input.device.deviceName }),
  });
}

/** Step 2: the code adds this device to the account (not primary) and signs the owner in here. */
export async function completeDeviceAdd(
  deps: Deps,
  context: RequestContext,
  input: TCredentials & { code: string },
): Promise<SignedIn> {
  const user = await checkCredentials(deps.db, context, { ...input, now: deps.clock.now() });
  await assertCanAdd(deps, user, input.device);

  const matched = await checkDeviceCode(deps, {
    user,
    device: input.device,
    purpose: 'device_add',
    code: input.code,
  });
  if (!matched) {
    await recordAccountEvent(deps.db, context, user, {
      eventType: 'device_added',
      successful: false,
      details: { reason: 'wrong or expired code to add a device' },
    });
    throw new AppError('INVALID_CODE', MORE_DEVICES_MESSAGES.codeInvalid);
  }

  const signedIn = await deps.db.transaction(async (tx) => {
    await retireOneTimeCodes(tx, user.id, 'device_add', deps.clock.now());
    const { maxDevices } = limitsFor(user);
    // Counted again inside the transaction: two devices confirmed at once cannot both pass.
    if (
      maxDevices !== null &&
      (await countDevicesOfUser(tx, user.id, { lock: true })) >= maxDevices
    ) {
      throw new AppError('UPGRADE_REQUIRED', deviceLimitMessage(maxDevices));
    }
    await bindSecondaryDevice(tx, input.device.id, user.id);
    const device = { ...input.device, userId: user.id, isPrimary: false };
    const session = await createSession(tx, user, device, deps.clock.now());
    await deps.mail.enqueue(
      tx,
      deviceAddedMail({
        owner: user,
        deviceName: input.device.deviceName,
        appUrl: deps.config.APP_URL,
      }),
    );
    await recordAccountEvent(tx, context, user, {
      eventType: 'device_added',
      details: {
        message: `Added ${input.device.deviceName} as another device`,
        deviceId: device.id,
      },
    });
    return { user, device, ...session };
  });
  deps.mail.kick();
  return signedIn;
}

/**
 * 'Make Primary' (POST /api/device/set-primary): a paid account moves the primary role to
 * one of its own other devices; the old primary stays one of its devices.
 */
export async function setPrimaryDevice(
  deps: Deps,
  context: RequestContext,
  input: { user: SessionUser; device: DeviceRow; deviceId: string },
): Promise<{ message: string }> {
  const { user, device } = input;
  if (!user.isPrimary || device.id !== input.deviceId || device.userId !== user.id) {
    throw new AppError('FORBIDDEN', MORE_DEVICES_MESSAGES.setPrimaryNotYours);
  }
  if (device.isPrimary) throw new AppError('CONFLICT', MORE_DEVICES_MESSAGES.alreadyPrimary);
  if (!hasCloudSync(user))
    throw new AppError('UPGRADE_REQUIRED', MORE_DEVICES_MESSAGES.setPrimaryFree);

  await deps.db.transaction(async (tx) => {
    const previous = await findPrimaryDeviceOfUser(tx, user.id);
    await makeDevicePrimary(tx, user.id, device.id);
    await deps.mail.enqueue(
      tx,
      primaryDeviceChangedMail({
        owner: user,
        deviceName: device.deviceName,
        appUrl: deps.config.APP_URL,
      }),
    );
    await recordAccountEvent(tx, context, user, {
      eventType: 'device_set_primary',
      details: {
        message: `${device.deviceName} is now the primary device`,
        from: previous?.deviceName ?? null,
        to: device.deviceName,
      },
    });
  });
  deps.mail.kick();
  return { message: MORE_DEVICES_MESSAGES.setPrimaryDone };
}
