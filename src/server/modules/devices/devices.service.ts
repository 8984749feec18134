import { MESSAGES } from '../../../shared/domain/errors';
import type {
  TDeviceStatus,
  TResetDeviceBody,
  TResetDeviceResponse,
} from '../../../shared/schemas/devices';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { sha256 } from '../../lib/crypto';
import { isPasswordRight, passwordGiven } from '../auth/derived-password';
import { describeUserAgent } from '../../lib/user-agent';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { assertAccountNotThrottled } from '../audit/throttle';
import { deleteSessionsOfUser } from '../auth/sessions.repository';
import type { SessionUser } from '../users/users.repository';
import { isPrimaryDeviceOf } from '../access/actor';
import {
  findPrimaryAccountOnDevice,
  findPrimaryDeviceOfUser,
  insertDevice,
  insertDeviceReset,
  unbindDevice,
  type DeviceRow,
} from './devices.repository';

export async function registerDevice(
  db: Db,
  input: { fingerprint: string; userAgent: string | undefined },
): Promise<DeviceRow> {
  const { deviceName, platform } = describeUserAgent(input.userAgent);
  return insertDevice(db, { fingerprintHash: sha256(input.fingerprint), deviceName, platform });
}

export async function getDeviceStatus(
  db: Db,
  device: DeviceRow,
  user: SessionUser | null,
): Promise<TDeviceStatus> {
  if (user) {
    const primary = isPrimaryDeviceOf(device, user)
      ? device
      : await findPrimaryDeviceOfUser(db, user.id);
    return {
      deviceId: device.id,
      isPrimary: primary?.id === device.id,
      hasPrimaryDevice: primary !== undefined,
      primaryDeviceId: primary?.id ?? null,
      lastSyncAt: device.lastSyncAt?.toISOString() ?? null,
    };
  }
  const holdsPrimaryAccount = (await findPrimaryAccountOnDevice(db, device.id)) !== undefined;
  return {
    deviceId: device.id,
    isPrimary: holdsPrimaryAccount,
    hasPrimaryDevice: holdsPrimaryAccount,
    primaryDeviceId: null,
    lastSyncAt: device.lastSyncAt?.toISOString() ?? null,
  };
}

/**
 * 'owner': frees this device's association when the caller proves they are the
 * bound account. 'emergency': gives this browser a fresh device identity and leaves the old
 * association where it is, so possession of a tablet never unbinds somebody else's account.
 */
export async function resetDevice(
  db: Db,
  context: RequestContext,
  input: {
    device: DeviceRow;
    user: SessionUser | null;
    body: TResetDeviceBody & { mode: 'owner' | 'emergency' };
    now: Date;
  },
): Promise<TResetDeviceResponse> {
  const { device, user, body } = input;
  const bound = await findPrimaryAccountOnDevice(db, device.id);

  if (body.mode === 'emergency') {
    const fresh = await db.transaction(async (tx) => {
      const { deviceName, platform } = describeUserAgent(context.userAgent);
      const created = await insertDevice(tx, {
        fingerprintHash: device.fingerprintHash,
        deviceName,
        platform,
      });
      await insertDeviceReset(tx, {
        deviceId: device.id,
        resetMethod: 'emergency',
        resetBy: user ? `user:${user.id}` : 'system',
        previousAssociations: bound
          ? [{ userId: bound.id, username: bound.username, isPrimary: true }]
          : [],
      });
      await recordAudit(tx, context, {
        eventType: 'device_reset',
        userId: bound?.id ?? user?.id ?? null,
        username: bound?.username ?? user?.username ?? null,
        details: {
          method: 'emergency',
          message: 'A browser dropped this device identity and was given a new one.',
          newDeviceId: created.id,
        },
      });
      return created;
    });
    return { message: 'Device Reset Successful', reset: true, username: null, deviceId: fresh.id };
  }

  if (!bound) return { message: 'Device Already Clear', reset: false, username: null };

  const isSignedInOwner = user?.id === bound.id;
  if (!isSignedInOwner) {
    await assertAccountNotThrottled(db, {
      eventType: 'device_reset',
      userId: bound.id,
      deviceId: device.id,
      message: MESSAGES.loginRateLimited,
      now: input.now,
    });
  }
  const isPasswordProof =
    !isSignedInOwner &&
    (body.password !== undefined || body.passwordProof !== undefined) &&
    (await isPasswordRight(bound, passwordGiven(body)));

  if (!isSignedInOwner && !isPasswordProof) {
    await recordAccountEvent(db, context, bound, {
      eventType: 'device_reset',
      successful: false,
      details: {
        method: 'owner',
        reason: body.password ? 'wrong password' : 'no proof of ownership',
      },
    });
    throw new AppError('RESET_NEEDS_OWNER', MESSAGES.resetNeedsOwner);
  }

  await db.transaction(async (tx) => {
    await unbindDevice(tx, device.id);
    await insertDeviceReset(tx, {
      deviceId: device.id,
      resetMethod: isSignedInOwner ? 'session' : 'password',
      resetBy: `user:${bound.id}`,
      previousAssociations: [{ userId: bound.id, username: bound.username, isPrimary: true }],
    });
    await deleteSessionsOfUser(tx, bound.id);
    await recordAccountEvent(tx, context, bound, {
      eventType: 'device_reset',
      details: { method: isSignedInOwner ? 'session' : 'password' },
    });
  });
  return { message: 'Device Reset Successful', reset: true, username: bound.username };
}
