import {
  ADMIN_MESSAGES,
  encodeDeviceCursor,
  type TAdminDevicesPage,
  type TAdminDevicesQuery,
} from '../../../shared/schemas/admin';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import { findDeviceById, insertDeviceReset, unbindDevice } from '../devices/devices.repository';
import { deviceAssociationRemovedMail } from './admin.mails';
import { findUserById, type SessionUser } from '../users/users.repository';
import {
  deleteSessionsOnDevice,
  findAssociationsOfDevice,
  listDeviceAssociationsPage,
} from './admin.repository';
import { toAdminDevice } from './admin.presenter';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'mail'>;

export async function listDevices(
  deps: Deps,
  query: TAdminDevicesQuery,
): Promise<TAdminDevicesPage> {
  const page = await listDeviceAssociationsPage(deps.db, {
    limit: query.limit,
    after: query.after,
    now: deps.clock.now(),
  });
  const last = page.rows.at(-1);
  return {
    devices: page.rows.map(toAdminDevice),
    nextCursor:
      page.hasMore && last
        ? encodeDeviceCursor({
            createdAt: last.cursorTime,
            deviceId: last.deviceId,
            userId: last.userId,
          })
        : null,
  };
}

/**
 * Frees a device (an admin can remove an association): the binding goes, everyone signed
 * in there is signed out, a reset-device record and audit rows are written, the owner is told.
 */
export async function removeDeviceAssociation(
  deps: Deps,
  context: RequestContext,
  input: { admin: SessionUser; deviceId: string },
): Promise<{ message: string }> {
  const { admin, deviceId } = input;
  await deps.db.transaction(async (tx) => {
    const device = await findDeviceById(tx, deviceId);
    const associations = device
      ? await findAssociationsOfDevice(tx, deviceId, deps.clock.now())
      : [];
    if (!device || associations.length === 0) {
      throw new AppError('NOT_FOUND', ADMIN_MESSAGES.deviceNotFound);
    }
    await unbindDevice(tx, deviceId);
    await deleteSessionsOnDevice(tx, deviceId);
    await insertDeviceReset(tx, {
      deviceId,
      resetMethod: 'admin',
      resetBy: admin.username,
      previousAssociations: associations.map((a) => ({
        userId: a.userId,
        username: a.username,
        isPrimary: a.isPrimary,
      })),
    });
    for (const association of associations) {
      await recordAudit(tx, context, {
        eventType: 'device_reset',
        userId: association.userId,
        username: association.username,
        details: {
          adminId: admin.id,
          admin: admin.username,
          method: 'association removed by an administrator',
          removedDeviceId: deviceId,
          wasPrimaryDevice: association.isPrimary,
        },
      });
      if (association.isPrimary && association.userId !== admin.id) {
        const owner = await findUserById(tx, association.userId);
        if (owner) {
          await deps.mail.enqueue(
            tx,
            deviceAssociationRemovedMail({
              owner,
              deviceName: device.deviceName,
              appUrl: deps.config.APP_URL,
            }),
          );
        }
      }
    }
  });
  deps.mail.kick();
  return { message: 'Device association removed successfully' };
}
