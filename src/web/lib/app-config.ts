import { useQuery } from '@tanstack/react-query';

import type { TPublicConfig } from '@shared/schemas/config';

export type TAppConfig = TPublicConfig;

export const CONFIG_QUERY_KEY = ['/api/config'] as const;

export function useAppConfig() {
  return useQuery<TAppConfig>({ queryKey: CONFIG_QUERY_KEY });
}
