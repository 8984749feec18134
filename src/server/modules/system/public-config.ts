import type { TPublicConfig } from '../../../shared/schemas/config';
import type { TExternalProviderInfo } from '../../../shared/schemas/external-sign-in';
import { isBillingEnabled, type TConfig } from '../../config';

/** What this installation has switched on, as the browser may know it (GET /api/config). */
export function toPublicConfig(
  config: TConfig,
  externalProviders: TExternalProviderInfo[],
): TPublicConfig {
  return {
    analyticsScriptUrl: config.ANALYTICS_SCRIPT_URL ?? null,
    donationUrl: config.DONATION_URL ?? null,
    sourceCodeUrl: config.SOURCE_CODE_URL ?? null,
    billingEnabled: isBillingEnabled(config),
    externalProviders,
  };
}
