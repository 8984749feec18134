import { useQuery } from '@tanstack/react-query';
import type { TEncryptionState, TTurnOnEncryptionBody } from '@shared/schemas/encryption';
import { apiRequest } from '@web/lib/api-client';
import { ENCRYPTION_QUERY_KEY, fetchEncryptionState } from '@web/lib/encryption/encryption-state';

/** GET /api/encryption: off (offered or not by the plan) or on since when. */
export function useEncryptionState() {
  return useQuery<TEncryptionState>({
    queryKey: ENCRYPTION_QUERY_KEY,
    queryFn: fetchEncryptionState,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** POST /api/encryption: the password checked once more, the account key only as wraps. */
export function postTurnOn(body: TTurnOnEncryptionBody): Promise<TEncryptionState> {
  return apiRequest<TEncryptionState>(ENCRYPTION_QUERY_KEY[0], { method: 'POST', body });
}
