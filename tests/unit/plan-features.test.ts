import { describe, expect, it } from 'vitest';
import { FEATURES, FEATURE_STATUS_LABELS, statusOf } from '../../src/shared/domain/feature-status';
import { findPlan, PAID_TIERS, PLANS } from '../../src/shared/domain/plans';

const allLines = PLANS.flatMap((plan) =>
  plan.features.map((line) => ({ plan: plan.name, ...line })),
);

describe('what the plans sell', () => {
  it('every line of every plan is tied to one entry of the feature status list', () => {
    const ids = FEATURES.map((feature) => feature.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const tier of PAID_TIERS) expect(findPlan(tier).features.length, tier).toBeGreaterThan(0);
    for (const line of allLines) {
      expect(ids, `${line.plan}: ${line.text}`).toContain(line.featureId);
    }
  });

  it('each line sells one feature, so one status word fits it', () => {
    for (const line of allLines) {
      expect(line.text, line.plan).not.toMatch(/,| and /);
    }
  });

  it('Professional sells custom branding, bulk management and priority support with their status', () => {
    const professional = findPlan('professional').features;
    const sold = professional.map((line) => [line.text, line.featureId, statusOf(line)]);
    expect(sold).toEqual(
      expect.arrayContaining([
        ['Custom branding', 'custom_branding', 'complete'],
        ['Bulk management', 'bulk_management', 'complete'],
        ['Priority support', 'priority_support', 'complete'],
      ]),
    );
    expect(FEATURE_STATUS_LABELS.started).toBe('Started');
    expect(FEATURE_STATUS_LABELS.in_progress).toBe('In Progress');
  });

  it('the paid plans keep the product’s own words for what they add', () => {
    const texts = (tier: (typeof PAID_TIERS)[number]) =>
      findPlan(tier).features.map((line) => line.text.toLowerCase());
    expect(texts('standard')).toEqual(
      expect.arrayContaining([
        'up to 10 recipients',
        'up to 3 devices',
        'cloud sync',
        'background sync',
      ]),
    );
    expect(texts('premium')).toEqual(
      expect.arrayContaining(['unlimited recipients', 'up to 10 devices', 'device migration']),
    );
    expect(texts('professional')).toEqual(
      expect.arrayContaining([
        'unlimited recipients',
        'up to 25 devices',
        'custom branding',
        'bulk management',
        'priority support',
      ]),
    );
  });
});
