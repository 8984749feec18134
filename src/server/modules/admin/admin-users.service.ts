import type { TAuditEventType } from '../../../shared/domain/enums';
import { MESSAGES } from '../../../shared/domain/errors';
import { findPlan } from '../../../shared/domain/plans';
import {
  ADMIN_MESSAGES,
  type TAdminPrimaryUser,
  type TAdminUser,
  type TAdminUsersPage,
  type TAdminUsersQuery,
  type TDeleteUsersResult,
  type TOverrideTierBody,
} from '../../../shared/schemas/admin';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import type { TNewPasswordGiven } from '../../../shared/schemas/derived-password';
import { newPasswordColumns } from '../auth/derived-password';
import { SESSION_LIFETIME_MS } from '../../plugins/request-context';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import { deleteSessionsOfUser } from '../auth/sessions.repository';
import { paidTierNow } from '../billing/billing-state';
import { lockUser } from '../billing/billing.repository';
import { cancelSubscriptionsOfDeleted } from '../billing/billing.service';
import { noteCloudEntitlementChange } from '../cloud/retention.service';
import { findCloudLeftovers, findVideoIdsOfUsers } from '../cloud/uploads.repository';
import { removeCloudCopies } from '../cloud/uploads.service';
import { adminPasswordResetMail } from './admin.mails';
import {
  findUserById,
  updateUser,
  type UserRow,
  type SessionUser,
} from '../users/users.repository';
import {
  capSessionsOfUser,
  countAdmins,
  deleteUsersAndUnbindDevices,
  findRecipientsOfMany,
  findUsersByIds,
  listPrimaryUsers,
  listUsersPage,
} from './admin.repository';
import { toAdminUser } from './admin.presenter';
import { clearSecondFactor } from './second-factor.repository';
import { lockForTransaction } from '../../db/locks';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<
  AppDeps,
  'clock' | 'config' | 'db' | 'log' | 'mail' | 'payments' | 'uploadPartBytes' | 'videoStore'
>;

const fullName = (user: Pick<UserRow, 'firstName' | 'lastName'>) =>
  `${user.firstName} ${user.lastName}`;

/** An admin's action on one account: in that account's log, naming the admin. */
function auditByAdmin(
  tx: DbOrTx,
  context: RequestContext,
  admin: SessionUser,
  target: Pick<UserRow, 'id' | 'username'>,
  eventType: TAuditEventType,
  details: Record<string, unknown>,
): Promise<void> {
  return recordAudit(tx, context, {
    eventType,
    userId: target.id,
    username: target.username,
    details: { adminId: admin.id, admin: admin.username, ...details },
  });
}

export async function listUsers(deps: Deps, query: TAdminUsersQuery): Promise<TAdminUsersPage> {
  const page = await listUsersPage(deps.db, {
    limit: query.limit,
    afterId: query.after,
    search: query.q,
  });
  const last = page.rows.at(-1);
  return {
    users: page.rows.map((row) => toAdminUser(row.user, row.dependentCount)),
    nextCursor: page.hasMore && last ? String(last.user.id) : null,
  };
}

export function listPrimaryAccounts(deps: Deps): Promise<TAdminPrimaryUser[]> {
  return listPrimaryUsers(deps.db);
}

async function findTarget(db: DbOrTx, userId: number): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
  return user;
}

async function presentOne(deps: Deps, userId: number): Promise<TAdminUser> {
  const user = await findTarget(deps.db, userId);
  const recipients = await findRecipientsOfMany(deps.db, [userId]);
  return toAdminUser(user, recipients.length);
}

/** Tier and VIP, with who, when and why; who comes from the session, never the body. */
export async function overrideTier(
  deps: Deps,
  context: RequestContext,
  input: {
    admin: SessionUser;
    userId: number;
    body: Required<Omit<TOverrideTierBody, 'overriddenBy'>>;
  },
): Promise<TAdminUser> {
  const { admin, body } = input;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const target = await findTarget(tx, input.userId);
    const isVipChanged = target.isVIP !== body.isVIP;
    await updateUser(
      tx,
      target.id,
      {
        subscriptionTier: body.tier,
        tierOverriddenBy: admin.id,
        tierOverriddenAt: now,
        tierOverrideReason: body.reason,
        ...(isVipChanged
          ? { isVIP: body.isVIP, vipOverriddenBy: admin.id, vipOverriddenAt: now }
          : {}),
      },
      now,
    );
    await noteCloudEntitlementChange(deps, tx, {
      user: target,
      before: target,
      after: { ...target, subscriptionTier: body.tier, isVIP: body.isVIP },
      now,
    });
    await auditByAdmin(tx, context, admin, target, 'admin_tier_override', {
      from: target.subscriptionTier,
      to: body.tier,
      reason: body.reason,
    });
    if (isVipChanged) {
      await auditByAdmin(tx, context, admin, target, 'admin_vip_override', {
        isVIP: body.isVIP,
        reason: body.reason,
      });
    }
  });
  deps.mail.kick();
  return presentOne(deps, input.userId);
}

/**
 * 'Return to billing': the admin's tier setting is cleared and the plan follows the account's
 * payments again, from now on. Down goes the way every downgrade goes (record, cloud retention,
 * email); up is at once. VIP is its own switch and, while on, still holds the plan.
 */
export async function returnToBilling(
  deps: Deps,
  context: RequestContext,
  input: { admin: SessionUser; userId: number },
): Promise<TAdminUser> {
  const { admin } = input;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const target = await lockUser(tx, input.userId);
    if (!target) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
    if (target.isVIP) throw new AppError('CONFLICT', ADMIN_MESSAGES.vipHoldsPlan);
    // Pressed twice, or by two admins at once: it already follows billing.
    if (target.tierOverriddenBy === null) return;
    const paid = paidTierNow(target, now);
    const tier = paid ?? 'free';
    await updateUser(
      tx,
      target.id,
      {
        subscriptionTier: tier,
        tierOverriddenBy: null,
        tierOverriddenAt: null,
        tierOverrideReason: null,
      },
      now,
    );
    await noteCloudEntitlementChange(deps, tx, {
      user: target,
      before: target,
      after: { ...target, subscriptionTier: tier },
      now,
    });
    const plan = findPlan(tier).name;
    await auditByAdmin(tx, context, admin, target, 'admin_tier_override', {
      from: target.subscriptionTier,
      to: tier,
      message: paid
        ? `Returned to billing: the plan follows their payments again (${plan}).`
        : `Returned to billing: no plan is paid for, so the account is on ${plan}.`,
    });
  });
  deps.mail.kick();
  return presentOne(deps, input.userId);
}

/**
 * The admin sets a temporary password; the owner must choose their own at next sign-in.
 * Their sessions end, they are emailed, and it is in their log.
 */
export async function resetUserPassword(
  deps: Deps,
  context: RequestContext,
  input: { admin: SessionUser; userId: number; newPassword: TNewPasswordGiven; reason: string },
): Promise<{ message: string }> {
  const { admin } = input;
  const target = await findTarget(deps.db, input.userId);
  if (!target.isPrimary) {
    throw new AppError(
      'VALIDATION',
      'People who receive messages sign in with their email and access code, so they have no password to reset.',
    );
  }
  if (target.id === admin.id) {
    throw new AppError(
      'VALIDATION',
      'To change your own password, use Reset Password on your dashboard.',
    );
  }
  // With enhanced encryption on, the admin's browser split the temporary password too.
  const stored = await newPasswordColumns(deps.db, target.id, input.newPassword);
  await deps.db.transaction(async (tx) => {
    await updateUser(
      tx,
      target.id,
      { ...stored, firstLogin: true, hasSetPassword: false },
      deps.clock.now(),
    );
    await deleteSessionsOfUser(tx, target.id);
    await deps.mail.enqueue(
      tx,
      adminPasswordResetMail({ owner: target, appUrl: deps.config.APP_URL }),
    );
    await auditByAdmin(tx, context, admin, target, 'password_reset', {
      method: 'reset by an administrator',
      reason: input.reason,
    });
  });
  deps.mail.kick();
  return { message: 'User password has been reset successfully' };
}

/** Admins grant and revoke admin for others; the last admin always stays, so none is locked out. */
export async function setAdmin(
  deps: Deps,
  context: RequestContext,
  input: { admin: SessionUser; userId: number; isAdmin: boolean },
): Promise<TAdminUser> {
  const { admin } = input;
  await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'adminSet');
    const target = await findTarget(tx, input.userId);
    if (target.isAdmin === input.isAdmin) return;
    if (input.isAdmin) {
      if (!target.isPrimary) {
        throw new AppError(
          'VALIDATION',
          'Only people with their own account can be administrators.',
        );
      }
      // Two-factor is required from the first visit to /admin; sessions get 12 hours.
      const now = deps.clock.now();
      await updateUser(
        tx,
        target.id,
        { isAdmin: true, role: 'admin', twoFactorEnabled: true },
        now,
      );
      await capSessionsOfUser(tx, target.id, new Date(now.getTime() + SESSION_LIFETIME_MS.admin));
    } else {
      if ((await countAdmins(tx)) <= 1) throw new AppError('LAST_ADMIN', ADMIN_MESSAGES.lastAdmin);
      await updateUser(
        tx,
        target.id,
        { isAdmin: false, role: 'user', twoFactorEnabled: false },
        deps.clock.now(),
      );
      await clearSecondFactor(tx, target.id);
    }
    await auditByAdmin(tx, context, admin, target, 'admin_user_modified', {
      change: input.isAdmin ? 'made an admin' : 'admin rights removed',
    });
  });
  return presentOne(deps, input.userId);
}

function describeDependents(owner: SessionUser, recipients: UserRow[]): string {
  const names = recipients.map(fullName).join(', ');
  const noun = recipients.length === 1 ? 'recipient' : 'recipients';
  return `${owner.username} has ${recipients.length} ${noun} (${names}).`;
}

/**
 * An account with recipients is refused first, naming them, so none is removed unseen; with
 * includeRecipients they go
 * too. One transaction removes sessions, devices' bindings, recipients and index rows; audit
 * rows stay (the log is append-only and keeps the username). The cloud copies of every video
 * that went are deleted once it commits.
 */
export async function deleteUsers(
  deps: Deps,
  context: RequestContext,
  input: { admin: SessionUser; ids: number[]; includeRecipients: boolean },
): Promise<TDeleteUsersResult> {
  const { admin } = input;
  const { deletedIds, videoIds, cloudCopies, paying } = await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'adminSet');
    const targets = await findUsersByIds(tx, [...new Set(input.ids)]);
    if (targets.length === 0) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
    const targetIds = new Set(targets.map((user) => user.id));

    if (targets.some((user) => user.isAdmin && user.id !== admin.id)) {
      throw new AppError('FORBIDDEN', ADMIN_MESSAGES.demoteFirst);
    }
    const adminsLeft = (await countAdmins(tx)) - targets.filter((user) => user.isAdmin).length;
    if (adminsLeft < 1) throw new AppError('LAST_ADMIN', ADMIN_MESSAGES.lastAdmin);

    const recipients = (await findRecipientsOfMany(tx, [...targetIds])).filter(
      (recipient) => !targetIds.has(recipient.id),
    );
    if (recipients.length > 0 && !input.includeRecipients) {
      const owners = targets.filter((user) => recipients.some((r) => r.createdById === user.id));
      const sentences = owners.map((owner) =>
        describeDependents(
          owner,
          recipients.filter((r) => r.createdById === owner.id),
        ),
      );
      throw new AppError(
        'HAS_DEPENDENTS',
        `Cannot delete: ${sentences.join(' ')} Choose 'Delete user and their recipients' to delete them too.`,
      );
    }
    await assertNextOfKinKept(tx, targets, targetIds);

    const doomed = [...targets, ...recipients];
    const doomedIds = doomed.map((user) => user.id);
    // Their videos go with them (foreign keys), and so must the videos' cloud copies.
    const videoIds = await findVideoIdsOfUsers(tx, doomedIds);
    const cloudCopies = await findCloudLeftovers(tx, videoIds);
    await deleteUsersAndUnbindDevices(tx, doomedIds);
    for (const user of doomed) {
      await auditByAdmin(tx, context, admin, user, 'admin_user_deleted', {
        category: user.category,
        ...(user.createdById ? { recipientOf: user.createdById } : {}),
      });
    }
    return { deletedIds: doomedIds, videoIds, cloudCopies, paying: targets };
  });
  await removeCloudCopies(deps, cloudCopies, videoIds);
  await cancelSubscriptionsOfDeleted(deps, paying);
  const count = deletedIds.length;
  return {
    message: count === 1 ? 'The user was deleted.' : `${count} users were deleted.`,
    deletedIds,
  };
}

/** A primary account that stays keeps at least one next of kin: someone must reach its messages. */
async function assertNextOfKinKept(tx: DbOrTx, targets: UserRow[], targetIds: Set<number>) {
  for (const target of targets) {
    if (target.category !== 'next_of_kin' || !target.createdById) continue;
    if (targetIds.has(target.createdById)) continue;
    const siblings = await findRecipientsOfMany(tx, [target.createdById]);
    const kept = siblings.filter((r) => r.category === 'next_of_kin' && !targetIds.has(r.id));
    if (kept.length === 0) {
      const owner = await findUserById(tx, target.createdById);
      throw new AppError(
        'LAST_NEXT_OF_KIN',
        `${fullName(target)} is the only next of kin of ${owner?.username ?? 'their account'}. ${MESSAGES.lastNextOfKin}.`,
      );
    }
  }
}
