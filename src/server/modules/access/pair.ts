import { hasCloudSync } from '../../../shared/domain/plan-limits';
import type { SessionUser } from '../users/users.repository';

/**
 * Who may pair a phone (and receive its videos): the owner on their primary device (the routes
 * ask `requirePrimaryOnPrimaryDevice`), on a plan with cloud sync, since the phone sends to the
 * cloud.
 */
export function mayPair(owner: SessionUser): boolean {
  return hasCloudSync(owner);
}
