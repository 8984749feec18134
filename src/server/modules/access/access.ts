import { isRecipientCategory } from '../../../shared/domain/enums';
import { MESSAGES, type TErrorCode } from '../../../shared/domain/errors';
import { hasCloudSync } from '../../../shared/domain/plan-limits';
import { CLOUD_MESSAGES } from '../../../shared/schemas/cloud';
import { ENCRYPTION_MESSAGES } from '../../../shared/schemas/encryption';
import { PAIRING_MESSAGES } from '../../../shared/schemas/pairing';
import { TRANSFER_MESSAGES } from '../../../shared/schemas/transfers';
import {
  CARE_HOME_MESSAGES,
  isCareHomePlan,
  type TResidentStatus,
} from '../../../shared/schemas/care-homes';
import { CARE_TEAM_MESSAGES } from '../../../shared/schemas/care-team';
import { AppError } from '../../errors';
import { isReleased } from '../legacy/release-rule';
import type { SessionUser } from '../users/users.repository';
import type { Actor } from './actor';

/**
 * Who may do what, one case a permission. Each rule takes who is asking (an `Actor`) and, where
 * the answer depends on it, the thing asked about; services call `requireAccess` before anything
 * else. A refusal keeps the status and words each screen has always shown.
 */
export const Permission = {
  /** Record a message (index it, send it): the owner on their primary device, or a paired phone. */
  MessageAdd: 'message.add',
  /** Delete messages, choose prompts: the owner on their primary device. */
  MessagesChange: 'messages.change',
  /** Say when a message opens: the owner on their primary device. */
  MessageRelease: 'message.release',
  /** Watch a message: its owner always; its recipient once it is released. */
  MessageWatch: 'message.watch',
  /** Continue an upload: the owner's own, and a paired phone only those of its pairing. */
  UploadTouch: 'upload.touch',
  /** Keep messages in the cloud: a plan with cloud sync. */
  CloudSync: 'cloud.sync',
  /** Pair a phone, see or cancel the pairing: the owner on their primary device. */
  PairingManage: 'pairing.manage',
  /** Send from a phone: a plan with cloud sync, since the phone sends to the cloud. */
  PhoneImport: 'phone.import',
  /** Add, remove or reshare recipients: the owner on their primary device. */
  RecipientsManage: 'recipients.manage',
  /** Finish setting up an account: the owner on their primary device. */
  OnboardingComplete: 'onboarding.complete',
  /** Change legacy release settings: the owner on their primary device. */
  LegacySettings: 'legacy.settings',
  /** See, cancel or end a legacy release: the owner, on any of their devices (speed matters). */
  LegacyOwner: 'legacy.owner',
  /** The security log: an admin, or the owner on their primary device. */
  AuditRead: 'audit.read',
  /** The recipient's home: an account an owner added as a recipient. */
  RecipientHome: 'recipient.home',
  /** See the account's enhanced encryption and its key wraps: the owner, on any of their devices. */
  EncryptionRead: 'encryption.read',
  /** Turn enhanced encryption on: the owner on their primary device, where messages are sealed. */
  EncryptionManage: 'encryption.manage',
  /** Move messages tablet to tablet: the owner on their primary device, old or new. */
  TransferMessages: 'transfer.messages',
  /** Set up and run a care home: an owner's account on Professional or its trial, any device. */
  CareHomeManage: 'care_home.manage',
  /** Share a message with the care team, or stop: the resident on their own primary device. */
  CareTeamShare: 'care_team.share',
  /**
   * Watch a message shared with a care team: its home's manager or active staff, while the
   * resident lives there, once the message is open, and never a sealed one.
   */
  CareTeamWatch: 'care_team.watch',
  /**
   * Ask for the next of kin's escrow of the account key: the next of kin, or the owner's own
   * account (taken over after break-glass); never a phone or an admin. The code decides the rest.
   */
  EscrowOpen: 'escrow.open',
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];

/** A message and its owner (null when that account is gone), asked about at `now`. */
export interface WatchTarget {
  video: { creatorId: number } & Parameters<typeof isReleased>[0];
  owner: Parameters<typeof isReleased>[1] | null;
  now: Date;
}

/** A message shared with a care team, asked about by someone at `now`. */
export interface CareTeamWatchTarget {
  video: { sealedKeyWrap: string | null } & Parameters<typeof isReleased>[0];
  /** The resident; `isSealed` while their account has enhanced encryption on. */
  owner: Parameters<typeof isReleased>[1] & { isSealed: boolean };
  share: { careHomeId: number; sharedAt: Date };
  /** The resident's link to their home (one an account), or none. */
  residence: { careHomeId: number; status: TResidentStatus; statusChangedAt: Date | null } | null;
  /** The homes the asker manages or works at (active staff, not disabled). */
  memberOf: readonly number[];
  now: Date;
}

/**
 * Whether a share still stands: the resident lives at the home it was made with, and made it
 * since they last moved in (leaving ends every share; coming back does not bring them back).
 */
export function isShareCurrent(
  share: CareTeamWatchTarget['share'],
  residence: CareTeamWatchTarget['residence'],
): boolean {
  return (
    residence !== null &&
    residence.careHomeId === share.careHomeId &&
    residence.status === 'active' &&
    (residence.statusChangedAt === null ||
      share.sharedAt.getTime() >= residence.statusChangedAt.getTime())
  );
}

/** What each permission is asked about; the rest need only the actor. */
interface Targets {
  [Permission.MessageWatch]: WatchTarget;
  [Permission.CareTeamWatch]: CareTeamWatchTarget;
  [Permission.UploadTouch]: { userId: number; pairingId: string | null };
}
type TargetOf<P extends Permission> = P extends keyof Targets ? [target: Targets[P]] : [];

type Rule<P extends Permission> = {
  allows: (actor: Actor, ...target: TargetOf<P>) => boolean;
  refusal: readonly [TErrorCode, string];
};

/** 'Primary users only': a primary account signed in on its own primary device. */
function isOwnerOnPrimaryDevice(actor: Actor): boolean {
  return actor.pairingId === null && actor.user.isPrimary && actor.isPrimaryDevice;
}

const OWNERS_ONLY = 'Only the account owner can change legacy release.';

const RULES: { [P in Permission]: Rule<P> } = {
  [Permission.MessageAdd]: {
    // A station session a carer opened for this resident records for them, and nothing else.
    allows: (actor) =>
      actor.pairingId !== null ||
      isOwnerOnPrimaryDevice(actor) ||
      actor.stationSessionId !== undefined,
    refusal: ['FORBIDDEN', MESSAGES.primaryOnlyRecord],
  },
  [Permission.MessagesChange]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: ['FORBIDDEN', MESSAGES.primaryOnlyRecord],
  },
  [Permission.MessageRelease]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: [
      'FORBIDDEN',
      'Only the account owner, on their own device, can change when a message opens.',
    ],
  },
  [Permission.MessageWatch]: {
    // A deleted message or recipient has no row, so access ends the moment either goes.
    allows: (actor, { video, owner, now }) =>
      video.creatorId === actor.user.id || (owner !== null && isReleased(video, owner, now)),
    refusal: ['NOT_FOUND', CLOUD_MESSAGES.videoNotFound],
  },
  [Permission.UploadTouch]: {
    // A 404 that names nothing: someone else's upload does not exist for this actor.
    allows: (actor, upload) =>
      upload.userId === actor.user.id &&
      (actor.pairingId === null || upload.pairingId === actor.pairingId),
    refusal: ['NOT_FOUND', CLOUD_MESSAGES.uploadNotFound],
  },
  [Permission.CloudSync]: {
    allows: (actor) => hasCloudSync(actor.user),
    refusal: ['UPGRADE_REQUIRED', CLOUD_MESSAGES.upgradeRequired],
  },
  [Permission.PairingManage]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: ['FORBIDDEN', MESSAGES.primaryOnlyRecord],
  },
  [Permission.PhoneImport]: {
    allows: (actor) => hasCloudSync(actor.user),
    refusal: ['UPGRADE_REQUIRED', PAIRING_MESSAGES.paidOnly],
  },
  [Permission.RecipientsManage]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: ['FORBIDDEN', MESSAGES.primaryOnlyRecipients],
  },
  [Permission.OnboardingComplete]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: ['FORBIDDEN', 'Only primary users complete setup.'],
  },
  [Permission.LegacySettings]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: ['FORBIDDEN', OWNERS_ONLY],
  },
  [Permission.LegacyOwner]: {
    allows: (actor) => actor.user.category === 'primary',
    refusal: ['FORBIDDEN', OWNERS_ONLY],
  },
  [Permission.AuditRead]: {
    allows: (actor) => actor.user.isAdmin || isOwnerOnPrimaryDevice(actor),
    refusal: ['FORBIDDEN', MESSAGES.primaryOnlyAuditLogs],
  },
  [Permission.RecipientHome]: {
    allows: (actor) => isRecipient(actor.user),
    refusal: ['FORBIDDEN', MESSAGES.recipientsOnly],
  },
  [Permission.EncryptionRead]: {
    allows: (actor) => actor.pairingId === null && actor.user.category === 'primary',
    refusal: ['FORBIDDEN', ENCRYPTION_MESSAGES.ownerOnly],
  },
  [Permission.EncryptionManage]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: ['FORBIDDEN', ENCRYPTION_MESSAGES.primaryDeviceOnly],
  },
  [Permission.TransferMessages]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: ['FORBIDDEN', TRANSFER_MESSAGES.ownerOnly],
  },
  [Permission.CareHomeManage]: {
    allows: (actor) =>
      actor.pairingId === null &&
      actor.user.category === 'primary' &&
      isCareHomePlan(actor.user.subscriptionTier),
    refusal: ['UPGRADE_REQUIRED', CARE_HOME_MESSAGES.planRequired],
  },
  [Permission.CareTeamShare]: {
    allows: isOwnerOnPrimaryDevice,
    refusal: ['FORBIDDEN', CARE_TEAM_MESSAGES.ownDevice],
  },
  [Permission.CareTeamWatch]: {
    // The server cannot open a sealed copy, so the care team is never handed one.
    allows: (actor, { video, owner, share, residence, memberOf, now }) =>
      actor.pairingId === null &&
      memberOf.includes(share.careHomeId) &&
      isShareCurrent(share, residence) &&
      !owner.isSealed &&
      video.sealedKeyWrap === null &&
      isReleased(video, owner, now),
    // As for any message not open to someone: it does not exist for them.
    refusal: ['NOT_FOUND', CLOUD_MESSAGES.videoNotFound],
  },
  [Permission.EscrowOpen]: {
    allows: (actor) =>
      actor.pairingId === null &&
      !actor.user.isAdmin &&
      (actor.user.category === 'next_of_kin' || actor.user.category === 'primary'),
    refusal: ['FORBIDDEN', 'Only a next of kin can open this with their emergency card.'],
  },
};

/** A recipient's account: one of the recipient categories, added by an owner. */
export function isRecipient(
  user: Pick<SessionUser, 'category' | 'createdById'>,
): user is Pick<SessionUser, 'category'> & { createdById: number } {
  return isRecipientCategory(user.category) && user.createdById !== null;
}

/** Whether the actor holds the permission (on `target`, where it takes one). */
export function can<P extends Permission>(
  actor: Actor,
  permission: P,
  ...target: TargetOf<P>
): boolean {
  return RULES[permission].allows(actor, ...target);
}

/** The refusal of a permission, as its screens show it. */
export function refusal(permission: Permission): AppError {
  const [code, message] = RULES[permission].refusal;
  return new AppError(code, message);
}

/** Refuses (`AppError`, with the permission's status and words) unless the actor holds it. */
export function requireAccess<P extends Permission>(
  actor: Actor,
  permission: P,
  ...target: TargetOf<P>
): void {
  if (!can(actor, permission, ...target)) throw refusal(permission);
}
