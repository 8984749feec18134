import type { TUser } from '../../../shared/schemas/auth';
import type { DeviceRow } from '../devices/devices.repository';
import type { WaitingReleaseRows } from './current-user.repository';
import { toUserResponse } from './users.presenter';
import type { SessionUser } from './users.repository';

/** The owner's waiting legacy release, read with the request's own lookups (one statement). */
export { WAITING_RELEASE_READ } from './current-user.repository';

/**
 * GET /api/user: the account on this device; for an owner, the legacy release their next of kin
 * asked for while it waits, shown on every signed-in screen.
 */
export function presentCurrentUser(
  user: SessionUser,
  device: DeviceRow,
  waiting: WaitingReleaseRows,
): TUser {
  const answer = toUserResponse(user, device);
  if (user.category !== 'primary') return answer;
  const [release] = waiting;
  answer.legacyRelease = release
    ? {
        requestedAt: release.requestedAt.toISOString(),
        releasesAt: release.releasesAt.toISOString(),
        requestedBy:
          release.requesterId === null
            ? null
            : { firstName: release.requesterFirstName!, lastName: release.requesterLastName! },
      }
    : null;
  return answer;
}
