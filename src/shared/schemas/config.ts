import type { TExternalProviderInfo } from './external-sign-in';

/** GET /api/config: what this installation has switched on. */
export interface TPublicConfig {
  analyticsScriptUrl: string | null;
  donationUrl: string | null;
  sourceCodeUrl: string | null;
  billingEnabled: boolean;
  /**
   * Whether an account here may keep its password split in the browser (enhanced encryption):
   * only then does a sign-in first ask for the settings and send the derived half.
   */
  passwordsSplitInBrowser: boolean;
  /** The external sign-in providers this installation has set up, in button order. */
  externalProviders: TExternalProviderInfo[];
}
