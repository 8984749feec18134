import type { TExternalProviderInfo } from './external-sign-in';

/** GET /api/config: what this installation has switched on. */
export interface TPublicConfig {
  analyticsScriptUrl: string | null;
  donationUrl: string | null;
  sourceCodeUrl: string | null;
  billingEnabled: boolean;
  /** The external sign-in providers this installation has set up, in button order. */
  externalProviders: TExternalProviderInfo[];
}
