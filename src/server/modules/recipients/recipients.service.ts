import { randomBytes } from 'node:crypto';
import { EMERGENCY_CODE_LENGTH, normalizeCode } from '../../../shared/domain/codes';
import { MESSAGES } from '../../../shared/domain/errors';
import { limitsFor } from '../../../shared/domain/plan-limits';
import type {
  TCreateRecipientBody,
  TRecipientCategory,
  TRecipientCreated,
  TRecipientDeleted,
  TRecipientList,
  TReshareCode,
} from '../../../shared/schemas/recipients';
import type { TAuditEventType } from '../../../shared/domain/enums';
import type { AppDeps } from '../../deps';
import type { OutgoingMail } from '../mail/mail.repository';
import type { MailBrand } from '../mail/mail-layout';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { generateCode } from '../../lib/codes';
import { hashSecret } from '../../lib/crypto';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import { brandForOwner } from '../care-homes/care-home-brand';
import { nextOfKinCodeMail, recipientAccessCodeMail } from './recipients.mails';
import {
  deleteUserRow,
  findRecipientsOf,
  insertUser,
  updateUser,
  type UserRow,
  type SessionUser,
} from '../users/users.repository';
import { findCloudLeftovers } from '../cloud/uploads.repository';
import { cancelRequestOfRemovedNextOfKin } from '../legacy/release-requests.service';
import { removeCloudCopies } from '../cloud/uploads.service';
import { deleteVideosForRecipient, findVideoIdsForRecipient } from '../videos/videos.repository';
import { findRecipientOf, findRecipientsWithVideoCounts } from './recipients.repository';
import { refuseServerCodeWhenSealed, requireCardRule, storeSealedCard } from './sealed-cards';

/** The owner's recipients with their message counts, read with the request. */
export { RECIPIENTS_WITH_VIDEO_COUNTS_READ } from './recipients.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<
  AppDeps,
  'clock' | 'config' | 'db' | 'log' | 'mail' | 'uploadPartBytes' | 'videoStore'
>;

type RecipientInput = Omit<TCreateRecipientBody, 'createdById'> & { email: string };

/** A fresh access code: returned once, stored only as an argon2id hash. */
export async function issueAccessCode(): Promise<{ code: string; hash: string }> {
  const code = generateCode(EMERGENCY_CODE_LENGTH);
  return { code, hash: await hashSecret(normalizeCode(code)) };
}

/**
 * A fresh code stored (only its hash) in place of this person's old one, and mailed to them in
 * the owner's care home's branding when the owner lives in one.
 */
async function replaceCodeAndMail(
  deps: Pick<Deps, 'clock' | 'config' | 'mail'>,
  tx: DbOrTx,
  input: { personId: number; ownerId: number },
  mailOf: (code: string, brand: MailBrand | undefined) => OutgoingMail,
): Promise<string> {
  const { code, hash } = await issueAccessCode();
  // Only a letter's code expires: one made here replaces it for good.
  await updateUser(
    tx,
    input.personId,
    { emergencyAccessCodeHash: hash, accessCodeExpiresAt: null },
    deps.clock.now(),
  );
  const brand = await brandForOwner(tx, input.ownerId, deps.config.APP_URL);
  await deps.mail.enqueue(tx, mailOf(code, brand));
  return code;
}

/** Replaces a next of kin's code and emails the new one. */
export function rotateNextOfKinCode(
  deps: Pick<Deps, 'clock' | 'config' | 'mail'>,
  tx: DbOrTx,
  input: { nextOfKin: SessionUser; owner: SessionUser; isReplacement: boolean },
): Promise<string> {
  return replaceCodeAndMail(
    deps,
    tx,
    { personId: input.nextOfKin.id, ownerId: input.owner.id },
    (code, brand) => nextOfKinCodeMail({ ...input, code, appUrl: deps.config.APP_URL, brand }),
  );
}

/** A family member's or friend's access code: replaced, emailed to them, returned once. */
function replaceRecipientCode(
  deps: Deps,
  tx: DbOrTx,
  input: { recipient: SessionUser; owner: SessionUser; isReplacement: boolean },
): Promise<string> {
  return replaceCodeAndMail(
    deps,
    tx,
    { personId: input.recipient.id, ownerId: input.owner.id },
    (code, brand) =>
      recipientAccessCodeMail({ ...input, code, appUrl: deps.config.APP_URL, brand }),
  );
}

/** A new code for anyone the owner added, of the kind their category uses, emailed to them. */
function issueCodeFor(
  deps: Deps,
  tx: DbOrTx,
  input: { recipient: SessionUser; owner: SessionUser; isReplacement: boolean },
): Promise<string> {
  const { recipient, owner, isReplacement } = input;
  return recipient.category === 'next_of_kin'
    ? rotateNextOfKinCode(deps, tx, { nextOfKin: recipient, owner, isReplacement })
    : replaceRecipientCode(deps, tx, input);
}

/** One line in the owner's log about one of their recipients. */
export function auditRecipientEvent(
  tx: DbOrTx,
  context: RequestContext,
  input: {
    owner: SessionUser;
    eventType: TAuditEventType;
    recipientId: number;
    message: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  return recordAudit(tx, context, {
    eventType: input.eventType,
    userId: input.owner.id,
    username: input.owner.username,
    details: { message: input.message, recipientId: input.recipientId, ...input.details },
  });
}

function upgradeMessage(maxRecipients: number): string {
  return `Your plan includes your next of kin and ${maxRecipients} more recipient${maxRecipients === 1 ? '' : 's'}. Upgrade to add more.`;
}

/**
 * Adds a recipient for the signed-in primary user; `createdById` always comes from the session.
 * During onboarding a repeated next-of-kin form updates the one next of kin rather than
 * making a second, so a retried request never leaves two.
 */
export async function createRecipient(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; body: RecipientInput },
): Promise<{ recipient: TRecipientCreated; isNew: boolean }> {
  requireAccess(input.actor, Permission.RecipientsManage);
  const { body } = input;
  const owner = input.actor.user;
  await requireCardRule(deps.db, owner.id, body.sealedCard);
  const result = await deps.db.transaction(async (tx) => {
    const existing = await findRecipientsOf(tx, owner.id);
    const sameEmail = existing.find((recipient) => recipient.email.toLowerCase() === body.email);
    const onboardingNextOfKin =
      body.category === 'next_of_kin' && !owner.onboardingCompletedAt
        ? existing.find((recipient) => recipient.category === 'next_of_kin')
        : undefined;
    const target = onboardingNextOfKin ?? (body.category === 'next_of_kin' ? sameEmail : undefined);

    // One email, one recipient: the next of kin being replaced may not take another's email.
    if (sameEmail && sameEmail.id !== target?.id) {
      throw new AppError('VALIDATION', 'You have already added someone with this email address.', {
        email: 'You have already added someone with this email address.',
      });
    }
    const { maxRecipients } = limitsFor(owner);
    const isMandatoryNextOfKin =
      body.category === 'next_of_kin' && !existing.some((r) => r.category === 'next_of_kin');
    if (
      !target &&
      !isMandatoryNextOfKin &&
      maxRecipients !== null &&
      countTowardsLimit(existing) >= maxRecipients
    ) {
      throw new AppError('UPGRADE_REQUIRED', upgradeMessage(maxRecipients));
    }

    const values = {
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      category: body.category,
      phoneNumber: body.phoneNumber ?? null,
      relationship: body.relationship ?? null,
    };

    let recipient: SessionUser;
    if (target) {
      // Someone else in the next of kin's place: a request the one before made goes with them.
      if (target.email.toLowerCase() !== body.email) {
        await cancelRequestOfRemovedNextOfKin(deps, tx, context, {
          owner,
          nextOfKin: target,
          how: 'replaced',
          now: deps.clock.now(),
        });
      }
      await updateUser(tx, target.id, values, deps.clock.now());
      recipient = { ...target, ...values };
    } else {
      recipient = await insertUser(tx, {
        ...values,
        // An internal username nobody types; recipients have no password.
        username: `recipient-${randomBytes(9).toString('base64url').toLowerCase()}`,
        createdById: owner.id,
        isPrimary: false,
        firstLogin: false,
        tosAccepted: false,
      });
    }

    const code = body.sealedCard
      ? await storeSealedCard(deps, tx, {
          person: recipient,
          owner,
          card: body.sealedCard,
          isReplacement: false,
        })
      : await issueCodeFor(deps, tx, { recipient, owner, isReplacement: false });
    const who = `${recipient.category === 'next_of_kin' ? 'next of kin' : 'recipient'} ${recipient.firstName} ${recipient.lastName}`;
    await auditRecipientEvent(tx, context, {
      owner,
      eventType: target ? 'recipient_updated' : 'recipient_added',
      recipientId: recipient.id,
      message: target ? `Updated ${who} and issued a new code` : `Added ${who}`,
    });

    return {
      recipient: {
        id: recipient.id,
        category: recipient.category as TRecipientCreated['category'],
        firstName: recipient.firstName,
        lastName: recipient.lastName,
        email: recipient.email,
        emergencyAccessCode: code,
      },
      isNew: !target,
    };
  });
  deps.mail.kick();
  return result;
}

/** The mandatory next of kin does not count towards the plan's recipient limit. */
export function countTowardsLimit(recipients: readonly Pick<UserRow, 'category'>[]): number {
  const hasNextOfKin = recipients.some((recipient) => recipient.category === 'next_of_kin');
  return recipients.length - (hasNextOfKin ? 1 : 0);
}

/** The recipients page: the owner's recipients (as read with the request) and their plan's limits. */
export function presentRecipients(
  owner: SessionUser,
  rows: Awaited<ReturnType<typeof findRecipientsWithVideoCounts>>,
): TRecipientList {
  const limits = limitsFor(owner);
  return {
    recipients: rows.map((recipient) => ({
      id: recipient.id,
      firstName: recipient.firstName,
      lastName: recipient.lastName,
      email: recipient.email,
      category: recipient.category as TRecipientCategory,
      phoneNumber: recipient.phoneNumber,
      relationship: recipient.relationship,
      videoCount: recipient.videoCount,
      createdAt: recipient.createdAt.toISOString(),
      sealedKey: recipient.sealedKey ?? null,
    })),
    maxRecipients: limits.maxRecipients,
    maxRecordingSeconds: limits.maxRecordingSeconds,
    showsHouseBanner: limits.showsHouseBanner,
  };
}

/**
 * Runs `work` in one transaction on one of the actor's own recipients, once the actor may manage
 * recipients; someone not theirs (or gone) is not found.
 */
export async function withOwnRecipient<T>(
  deps: Deps,
  input: { actor: Actor; recipientId: number },
  work: (tx: DbOrTx, owner: SessionUser, recipient: UserRow) => Promise<T>,
): Promise<T> {
  requireAccess(input.actor, Permission.RecipientsManage);
  const owner = input.actor.user;
  return deps.db.transaction(async (tx) => {
    const recipient = await findRecipientOf(tx, owner.id, input.recipientId);
    if (!recipient) throw new AppError('NOT_FOUND', MESSAGES.recipientNotFound);
    return work(tx, owner, recipient);
  });
}

/**
 * Codes are stored hashed, so 'reshare' issues a new one, the old one stops working, and the
 * new one is emailed to the recipient and shown once to the owner. With enhanced encryption on,
 * a new card is made on the owner's device instead (POST /api/recipients/:id/sealed-card).
 */
export async function reshareAccessCode(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; recipientId: number },
): Promise<TReshareCode> {
  const result = await withOwnRecipient(deps, input, async (tx, owner, recipient) => {
    await refuseServerCodeWhenSealed(tx, owner.id);
    const code = await issueCodeFor(deps, tx, { recipient, owner, isReplacement: true });
    await auditRecipientEvent(tx, context, {
      owner,
      eventType: 'recipient_code_reissued',
      recipientId: recipient.id,
      message: `Issued a new access code for ${recipient.firstName} ${recipient.lastName}; the old code no longer works`,
    });
    return {
      id: recipient.id,
      firstName: recipient.firstName,
      lastName: recipient.lastName,
      category: recipient.category as TRecipientCategory,
      emergencyAccessCode: code,
    };
  });
  deps.mail.kick();
  return result;
}

/**
 * A recipient goes with the index rows of their videos; the last next of kin stays.
 * The recipient's sessions end with the row (foreign key cascade).
 */
export async function deleteRecipient(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; recipientId: number },
): Promise<TRecipientDeleted> {
  const { result, cloudCopies } = await withOwnRecipient(
    deps,
    input,
    async (tx, owner, recipient) => {
      if (recipient.category === 'next_of_kin') {
        const nextOfKin = await findRecipientsOf(tx, owner.id, 'next_of_kin');
        if (nextOfKin.length <= 1) throw new AppError('LAST_NEXT_OF_KIN', MESSAGES.lastNextOfKin);
      }
      const cloudCopies = await findCloudLeftovers(
        tx,
        await findVideoIdsForRecipient(tx, owner.id, recipient.id),
      );
      const deletedVideoIds = await deleteVideosForRecipient(tx, owner.id, recipient.id);
      await cancelRequestOfRemovedNextOfKin(deps, tx, context, {
        owner,
        nextOfKin: recipient,
        how: 'removed',
        now: deps.clock.now(),
      });
      await deleteUserRow(tx, recipient.id);
      await auditRecipientEvent(tx, context, {
        owner,
        eventType: 'recipient_deleted',
        recipientId: recipient.id,
        message: `Removed ${recipient.firstName} ${recipient.lastName} and ${deletedVideoIds.length} video${deletedVideoIds.length === 1 ? '' : 's'} for them`,
        details: { videoCount: deletedVideoIds.length },
      });
      return { result: { id: recipient.id, deletedVideoIds }, cloudCopies };
    },
  );
  deps.mail.kick();
  await removeCloudCopies(deps, cloudCopies, result.deletedVideoIds);
  return result;
}
