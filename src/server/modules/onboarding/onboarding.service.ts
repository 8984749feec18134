import { MESSAGES } from '../../../shared/domain/errors';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../errors';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { findRecipientsOf, updateUser, type SessionUser } from '../users/users.repository';

/**
 * Ends the owner's setup, once: a next of kin must exist first, since someone has to be able to
 * reach the messages. Answers the account as it now is.
 */
export async function completeOnboarding(
  deps: { db: Db; clock: Clock },
  context: RequestContext,
  actor: Actor,
): Promise<SessionUser> {
  requireAccess(actor, Permission.OnboardingComplete);
  const { user } = actor;
  if (user.onboardingCompletedAt) return user;
  const nextOfKin = await findRecipientsOf(deps.db, user.id, 'next_of_kin');
  if (nextOfKin.length === 0) throw new AppError('VALIDATION', MESSAGES.nextOfKinRequired);

  const onboardingCompletedAt = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await updateUser(tx, user.id, { onboardingCompletedAt }, onboardingCompletedAt);
    await recordAccountEvent(tx, context, user, {
      eventType: 'onboarding_completed',
    });
  });
  return { ...user, onboardingCompletedAt };
}
