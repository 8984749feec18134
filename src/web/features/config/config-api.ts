import { useQuery } from '@tanstack/react-query';

/** GET /api/config: what this installation has switched on. */
export interface TAppConfig {
  analyticsScriptUrl: string | null;
  donationUrl: string | null;
  sourceCodeUrl: string | null;
  billingEnabled: boolean;
}

export const CONFIG_QUERY_KEY = ['/api/config'] as const;

export function useAppConfig() {
  return useQuery<TAppConfig>({ queryKey: CONFIG_QUERY_KEY });
}
