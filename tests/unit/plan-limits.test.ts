import { describe, expect, it } from 'vitest';
import type { TRole, TTier } from '../../src/shared/domain/enums';
import {
  cloudQuotaFor,
  hasCloudSync,
  hasFullAccess,
  limitsFor,
} from '../../src/shared/domain/plan-limits';
import { findPlan, isPaidTier } from '../../src/shared/domain/plans';

const GIB = 1024 ** 3;
const account = (
  tier: TTier,
  fields: { isAdmin?: boolean; isVIP?: boolean; role?: TRole } = {},
) => ({
  subscriptionTier: tier,
  isAdmin: false,
  isVIP: false,
  role: 'user' as TRole,
  ...fields,
});

describe('what each plan allows', () => {
  it('Community Edition: one recipient, one device, a minute a message, nothing in the cloud', () => {
    expect(limitsFor(account('free'))).toEqual({
      maxRecipients: 1,
      maxRecordingSeconds: 60,
      maxDevices: 1,
      showsHouseBanner: true,
    });
    expect(hasCloudSync(account('free'))).toBe(false);
    expect(cloudQuotaFor(account('free'))).toBe(0);
  });

  it('Standard: ten recipients, three devices, five minutes, 25 GiB in the cloud', () => {
    expect(limitsFor(account('standard'))).toEqual({
      maxRecipients: 10,
      maxRecordingSeconds: 300,
      maxDevices: 3,
      showsHouseBanner: false,
    });
    expect(cloudQuotaFor(account('standard'))).toBe(25 * GIB);
  });

  it('the larger plans: recipients without limit, ten minutes, more devices and storage', () => {
    const devices = { premium: 10, professional: 25, enterprise: null, nonprofit: null };
    const storage = { premium: 100, professional: 500, enterprise: 2048, nonprofit: 2048 };
    for (const tier of ['premium', 'professional', 'enterprise', 'nonprofit'] as const) {
      expect(limitsFor(account(tier)), tier).toEqual({
        maxRecipients: null,
        maxRecordingSeconds: 600,
        maxDevices: devices[tier],
        showsHouseBanner: false,
      });
      expect(cloudQuotaFor(account(tier)), tier).toBe(storage[tier] * GIB);
    }
  });

  it('every plan but Community Edition sends to the cloud', () => {
    for (const tier of [
      'standard',
      'premium',
      'professional',
      'enterprise',
      'nonprofit',
    ] as const) {
      expect(hasCloudSync(account(tier)), tier).toBe(true);
    }
    expect(findPlan('free').hasCloudSync).toBe(false);
  });

  it('a person buys Standard, Premium or Professional themselves; the others are arranged', () => {
    for (const tier of ['standard', 'premium', 'professional']) {
      expect(isPaidTier(tier), tier).toBe(true);
    }
    for (const tier of ['free', 'enterprise', 'nonprofit']) {
      expect(isPaidTier(tier), tier).toBe(false);
    }
  });
});

describe('admins and VIPs', () => {
  it('are treated as premium whatever their plan: no limits, no banner', () => {
    const held = [
      account('free', { isAdmin: true }),
      account('free', { isVIP: true }),
      account('free', { role: 'admin' }),
      account('free', { role: 'super_admin' }),
    ];
    for (const user of held) {
      expect(hasFullAccess(user)).toBe(true);
      expect(limitsFor(user)).toEqual({
        maxRecipients: null,
        maxRecordingSeconds: 600,
        maxDevices: null,
        showsHouseBanner: false,
      });
      expect(hasCloudSync(user)).toBe(true);
    }
  });

  it("get Professional's cloud storage", () => {
    expect(cloudQuotaFor(account('free', { isVIP: true }))).toBe(500 * GIB);
    expect(cloudQuotaFor(account('enterprise', { isAdmin: true }))).toBe(500 * GIB);
  });

  it('an ordinary user has no full access, whatever their plan', () => {
    expect(hasFullAccess(account('enterprise'))).toBe(false);
  });
});
