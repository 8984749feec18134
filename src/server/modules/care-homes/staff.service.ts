import {
  CARE_HOME_MESSAGES,
  STAFF_INVITE_DAYS,
  type TInviteStaffBody,
  type TStaffMember,
} from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import type { Actor } from '../access/actor';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import {
  findHomeById,
  findStaffByEmail,
  findStaffById,
  insertStaff,
  listStaff,
  lockStaffByTokenHash,
  updateStaff,
  type StaffRow,
} from './care-homes.repository';
import { requireOwnHome } from './care-homes.service';
import { staffInvitationMail } from './care-homes.mails';
import { findUserById } from '../users/users.repository';

type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'mail'>;

const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`;

function toStaffMember(row: StaffRow, now: Date): TStaffMember {
  const state = row.disabledAt
    ? 'disabled'
    : row.acceptedAt
      ? 'active'
      : row.inviteExpiresAt && row.inviteExpiresAt > now
        ? 'invited'
        : 'invite_expired';
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    state,
    invitedAt: row.createdAt.toISOString(),
  };
}

export async function getStaff(deps: Deps, actor: Actor): Promise<TStaffMember[]> {
  const home = await requireOwnHome(deps, actor);
  const now = deps.clock.now();
  return (await listStaff(deps.db, home.id)).map((row) => toStaffMember(row, now));
}

/**
 * Invites someone by email: a token only they receive, good once for 7 days. Inviting the same
 * address again sends a fresh link (and brings back someone disabled); someone already working
 * here is told so.
 */
export async function inviteStaff(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; body: TInviteStaffBody },
): Promise<TStaffMember> {
  const { actor, body } = input;
  const home = await requireOwnHome(deps, actor);
  const email = body.email.trim().toLowerCase();
  if (email === actor.user.email.toLowerCase()) {
    throw new AppError('VALIDATION', CARE_HOME_MESSAGES.ownHome, {
      email: CARE_HOME_MESSAGES.ownHome,
    });
  }
  const now = deps.clock.now();
  const token = randomToken();
  const invite = {
    firstName: body.firstName,
    lastName: body.lastName,
    inviteTokenHash: sha256(token),
    inviteExpiresAt: new Date(now.getTime() + STAFF_INVITE_DAYS * 24 * 3600_000),
    invitedById: actor.user.id,
  };
  const row = await deps.db.transaction(async (tx) => {
    const existing = await findStaffByEmail(tx, home.id, email);
    if (existing?.acceptedAt && !existing.disabledAt) {
      const message = `${fullName(existing)} already works at ${home.name}.`;
      throw new AppError('CONFLICT', message, { email: message });
    }
    const saved = existing
      ? await updateStaff(tx, existing.id, {
          ...invite,
          userId: null,
          acceptedAt: null,
          disabledAt: null,
          pinHash: null,
        })
      : await insertStaff(tx, { ...invite, careHomeId: home.id, email });
    await deps.mail.enqueue(
      tx,
      staffInvitationMail({
        staff: { firstName: saved.firstName, lastName: saved.lastName, email: saved.email },
        homeName: home.name,
        managerName: fullName(actor.user),
        link: `${deps.config.APP_URL}/care-home/join#${token}`,
      }),
    );
    await recordAccountEvent(tx, context, actor.user, {
      eventType: 'care_home_staff_invited',
      details: { message: `Invited ${fullName(saved)} to ${home.name}'s staff`, staffId: saved.id },
    });
    return saved;
  });
  deps.mail.kick();
  return toStaffMember(row, now);
}

/** Someone who left: their sign-in to the home ends at once; the row stays for the logs. */
export async function disableStaff(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; staffId: number },
): Promise<TStaffMember> {
  const home = await requireOwnHome(deps, input.actor);
  const found = await findStaffById(deps.db, input.staffId);
  // Another home's staff do not exist for this manager.
  if (!found || found.careHomeId !== home.id)
    throw new AppError('NOT_FOUND', CARE_HOME_MESSAGES.notFound);
  const now = deps.clock.now();
  if (found.disabledAt) return toStaffMember(found, now);
  const row = await deps.db.transaction(async (tx) => {
    const saved = await updateStaff(tx, found.id, { disabledAt: now, inviteTokenHash: null });
    await recordAccountEvent(tx, context, input.actor.user, {
      eventType: 'care_home_staff_disabled',
      details: {
        message: `Disabled ${fullName(saved)} on ${home.name}'s staff`,
        staffId: saved.id,
      },
    });
    return saved;
  });
  return toStaffMember(row, now);
}

/** The invited person, signed in with their own account, takes the invitation: once. */
export async function acceptStaffInvite(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; token: string },
): Promise<{ homeName: string }> {
  const { actor } = input;
  if (actor.pairingId !== null || actor.user.category !== 'primary') {
    throw new AppError(
      'FORBIDDEN',
      'Please sign in with your own Memento account to join the staff.',
    );
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockStaffByTokenHash(tx, sha256(input.token));
    if (!row || row.disabledAt || !row.inviteExpiresAt || row.inviteExpiresAt <= now) {
      throw new AppError('NOT_FOUND', CARE_HOME_MESSAGES.inviteNotValid);
    }
    const home = await findHomeById(tx, row.careHomeId);
    if (!home) throw new AppError('NOT_FOUND', CARE_HOME_MESSAGES.inviteNotValid);
    if (home.managerId === actor.user.id)
      throw new AppError('VALIDATION', CARE_HOME_MESSAGES.ownHome);
    await updateStaff(tx, row.id, {
      userId: actor.user.id,
      acceptedAt: now,
      inviteTokenHash: null,
      inviteExpiresAt: null,
    });
    await recordAccountEvent(tx, context, actor.user, {
      eventType: 'care_home_staff_joined',
      details: { message: `Joined ${home.name}'s staff` },
    });
    const manager = await findUserById(tx, home.managerId);
    await recordAudit(tx, context, {
      eventType: 'care_home_staff_joined',
      userId: home.managerId,
      username: manager?.username ?? null,
      details: {
        message: `${fullName(row)} accepted the invitation to ${home.name}'s staff`,
        actor: `${fullName(actor.user)}, staff`,
        staffId: row.id,
      },
    });
    return { homeName: home.name };
  });
}
