/** GET /api/config: what this installation has switched on. */
export interface TPublicConfig {
  analyticsScriptUrl: string | null;
  donationUrl: string | null;
  sourceCodeUrl: string | null;
  billingEnabled: boolean;
}
