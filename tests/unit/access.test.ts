import { describe, expect, it } from 'vitest';
import {
  can,
  isRecipient,
  Permission,
  requireAccess,
  type WatchTarget,
} from '../../src/server/modules/access/access';
import {
  isPrimaryDeviceOf,
  pairedPhoneActor,
  sessionActor,
  type Actor,
} from '../../src/server/modules/access/actor';
import type { DeviceRow } from '../../src/server/modules/devices/devices.repository';
import type { SessionUser } from '../../src/server/modules/users/users.repository';

// Who asks: only the fields the rules read; the rest of a session's user does not matter here.
const user = (fields: Partial<SessionUser>) =>
  ({
    id: 1,
    category: 'primary',
    isPrimary: true,
    isAdmin: false,
    isVIP: false,
    role: 'user',
    subscriptionTier: 'standard',
    createdById: null,
    ...fields,
  }) as SessionUser;
const device = (fields: Partial<DeviceRow>) =>
  ({ id: 'device-1', userId: 1, isPrimary: true, ...fields }) as DeviceRow;

const owner = user({});
const ownerOnPrimary = sessionActor(owner, device({}));
const ownerOnAddedDevice = sessionActor(owner, device({ isPrimary: false }));
const ownerOnSomeoneElsesPrimary = sessionActor(owner, device({ userId: 2 }));
const freeOwnerOnPrimary = sessionActor(user({ subscriptionTier: 'free' }), device({}));
const nextOfKin = user({ id: 5, category: 'next_of_kin', isPrimary: false, createdById: 1 });
const recipient = sessionActor(nextOfKin, device({ userId: 5 }));
const admin = sessionActor(
  user({ id: 9, category: 'admin', isPrimary: false, isAdmin: true, role: 'admin' }),
  device({ userId: 9, isPrimary: false }),
);
const phone = pairedPhoneActor(owner, device({ id: 'phone', userId: null }), 'pairing-1');

/** The permissions only the owner on their own primary device holds. */
const PRIMARY_DEVICE_ONLY = [
  Permission.MessagesChange,
  Permission.MessageRelease,
  Permission.PairingManage,
  Permission.RecipientsManage,
  Permission.OnboardingComplete,
  Permission.LegacySettings,
] as const;

function refusalOf(actor: Actor, permission: (typeof PRIMARY_DEVICE_ONLY)[number]) {
  try {
    requireAccess(actor, permission);
    return null;
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
}

describe('the primary device', () => {
  it('is the device marked primary for this very account', () => {
    expect(isPrimaryDeviceOf({ isPrimary: true, userId: 1 }, { id: 1 })).toBe(true);
    expect(isPrimaryDeviceOf({ isPrimary: false, userId: 1 }, { id: 1 })).toBe(false);
    expect(isPrimaryDeviceOf({ isPrimary: true, userId: 2 }, { id: 1 })).toBe(false);
    expect(ownerOnPrimary.isPrimaryDevice).toBe(true);
    expect(ownerOnSomeoneElsesPrimary.isPrimaryDevice).toBe(false);
  });
});

describe("'primary users only': the owner on their own primary device", () => {
  it.each(PRIMARY_DEVICE_ONLY)('%s: the owner on their primary device may', (permission) => {
    expect(can(ownerOnPrimary, permission)).toBe(true);
  });

  it.each(PRIMARY_DEVICE_ONLY)(
    '%s: an added device, another account’s primary, a recipient, an admin and a phone may not',
    (permission) => {
      for (const actor of [ownerOnAddedDevice, ownerOnSomeoneElsesPrimary, recipient, admin]) {
        expect(can(actor, permission)).toBe(false);
      }
      expect(can(phone, permission)).toBe(false);
    },
  );

  it('an added device may watch, never change: refused with the words each screen shows', () => {
    expect(refusalOf(ownerOnAddedDevice, Permission.MessagesChange)).toEqual({
      code: 'FORBIDDEN',
      message: 'Access Denied - Only primary users can record video messages.',
    });
    expect(refusalOf(ownerOnAddedDevice, Permission.RecipientsManage)).toEqual({
      code: 'FORBIDDEN',
      message: 'Only primary users can manage recipients.',
    });
    expect(refusalOf(ownerOnAddedDevice, Permission.LegacySettings)?.message).toBe(
      'Only the account owner can change legacy release.',
    );
    expect(refusalOf(ownerOnAddedDevice, Permission.MessageRelease)?.message).toBe(
      'Only the account owner, on their own device, can change when a message opens.',
    );
    expect(refusalOf(ownerOnAddedDevice, Permission.OnboardingComplete)?.message).toBe(
      'Only primary users complete setup.',
    );
    expect(refusalOf(ownerOnPrimary, Permission.MessagesChange)).toBeNull();
  });
});

describe('recording a message', () => {
  it('the owner on their primary device, or a phone paired to the account, may add one', () => {
    expect(can(ownerOnPrimary, Permission.MessageAdd)).toBe(true);
    expect(can(phone, Permission.MessageAdd)).toBe(true);
  });

  it('an added device, a recipient and an admin may not', () => {
    expect(can(ownerOnAddedDevice, Permission.MessageAdd)).toBe(false);
    expect(can(recipient, Permission.MessageAdd)).toBe(false);
    expect(can(admin, Permission.MessageAdd)).toBe(false);
  });

  it('a paired phone may only send, never delete or manage', () => {
    expect(can(phone, Permission.MessagesChange)).toBe(false);
    expect(can(phone, Permission.RecipientsManage)).toBe(false);
  });
});

describe('uploads', () => {
  it('the owner may continue any upload of their own account', () => {
    expect(can(ownerOnPrimary, Permission.UploadTouch, { userId: 1, pairingId: null })).toBe(true);
    expect(can(ownerOnPrimary, Permission.UploadTouch, { userId: 1, pairingId: 'p' })).toBe(true);
  });

  it("nobody may touch another account's upload, and its 404 names nothing", () => {
    expect(can(ownerOnPrimary, Permission.UploadTouch, { userId: 2, pairingId: null })).toBe(false);
    expect(() =>
      requireAccess(ownerOnPrimary, Permission.UploadTouch, { userId: 2, pairingId: null }),
    ).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it("a phone reaches only its own pairing's uploads", () => {
    expect(can(phone, Permission.UploadTouch, { userId: 1, pairingId: 'pairing-1' })).toBe(true);
    expect(can(phone, Permission.UploadTouch, { userId: 1, pairingId: null })).toBe(false);
    expect(can(phone, Permission.UploadTouch, { userId: 1, pairingId: 'pairing-2' })).toBe(false);
  });
});

describe('the cloud and phone import need a plan with cloud sync', () => {
  it('a paid plan, a VIP and an admin have it; Community Edition does not', () => {
    expect(can(ownerOnPrimary, Permission.CloudSync)).toBe(true);
    expect(can(freeOwnerOnPrimary, Permission.CloudSync)).toBe(false);
    const vip = sessionActor(user({ subscriptionTier: 'free', isVIP: true }), device({}));
    expect(can(vip, Permission.CloudSync)).toBe(true);
    expect(can(admin, Permission.CloudSync)).toBe(true);
  });

  it('each is refused as an upgrade, in its own words', () => {
    expect(() => requireAccess(freeOwnerOnPrimary, Permission.CloudSync)).toThrow(
      expect.objectContaining({ code: 'UPGRADE_REQUIRED' }),
    );
    expect(() => requireAccess(freeOwnerOnPrimary, Permission.PhoneImport)).toThrow(
      /Importing from a phone is part of the Standard, Premium and Professional plans/,
    );
    expect(can(ownerOnPrimary, Permission.PhoneImport)).toBe(true);
  });
});

describe('legacy release, seen or stopped', () => {
  it('the owner may on any of their devices: speed matters more than which', () => {
    expect(can(ownerOnPrimary, Permission.LegacyOwner)).toBe(true);
    expect(can(ownerOnAddedDevice, Permission.LegacyOwner)).toBe(true);
  });

  it('a recipient and an admin may not', () => {
    expect(can(recipient, Permission.LegacyOwner)).toBe(false);
    expect(can(admin, Permission.LegacyOwner)).toBe(false);
  });
});

describe('the security log', () => {
  it('an admin, or the owner on their primary device', () => {
    expect(can(admin, Permission.AuditRead)).toBe(true);
    expect(can(ownerOnPrimary, Permission.AuditRead)).toBe(true);
  });

  it('not an added device nor a recipient', () => {
    expect(can(ownerOnAddedDevice, Permission.AuditRead)).toBe(false);
    expect(() => requireAccess(recipient, Permission.AuditRead)).toThrow(
      'Only primary users can see security audit logs.',
    );
  });
});

describe("the recipient's home", () => {
  it('is for an account an owner added as next of kin, family or friend', () => {
    expect(can(recipient, Permission.RecipientHome)).toBe(true);
    for (const category of ['family', 'friend'] as const) {
      expect(isRecipient(user({ category, createdById: 1 }))).toBe(true);
    }
  });

  it('not for an owner, an admin, or a recipient row no owner created', () => {
    expect(can(ownerOnPrimary, Permission.RecipientHome)).toBe(false);
    expect(can(admin, Permission.RecipientHome)).toBe(false);
    expect(isRecipient(user({ category: 'family', createdById: null }))).toBe(false);
    expect(() => requireAccess(ownerOnPrimary, Permission.RecipientHome)).toThrow(
      'This page is for people who receive messages.',
    );
  });
});

describe('watching a message', () => {
  const now = new Date('2030-06-01T12:00:00Z');
  const message = (fields: Partial<WatchTarget['video']>): WatchTarget['video'] => ({
    creatorId: 1,
    releaseRule: 'now',
    releaseAt: null,
    ...fields,
  });
  const unreleasedOwner = { legacyReleasedAt: null };

  it('its owner may always, whatever its release', () => {
    const video = message({ releaseRule: 'legacy' });
    expect(can(ownerOnPrimary, Permission.MessageWatch, { video, owner: null, now })).toBe(true);
    expect(can(ownerOnAddedDevice, Permission.MessageWatch, { video, owner: null, now })).toBe(
      true,
    );
  });

  it('its recipient once it is released', () => {
    const video = message({ releaseRule: 'now' });
    const target = { video, owner: unreleasedOwner, now };
    expect(can(recipient, Permission.MessageWatch, target)).toBe(true);
  });

  it('its recipient not before, and not once its owner’s account is gone', () => {
    const later = message({ releaseRule: 'date', releaseAt: new Date('2031-01-01T00:00:00Z') });
    expect(
      can(recipient, Permission.MessageWatch, { video: later, owner: unreleasedOwner, now }),
    ).toBe(false);
    expect(can(recipient, Permission.MessageWatch, { video: message({}), owner: null, now })).toBe(
      false,
    );
    expect(() =>
      requireAccess(recipient, Permission.MessageWatch, { video: later, owner: null, now }),
    ).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});
