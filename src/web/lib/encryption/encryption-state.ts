import type { TEncryptionState } from '@shared/schemas/encryption';
import { apiRequest, isApiError } from '@web/lib/api-client';

export const ENCRYPTION_QUERY_KEY = ['/api/encryption'] as const;

const NOT_OFFERED: TEncryptionState = { state: 'off', isOffered: false };

/**
 * GET /api/encryption: off (and whether the plan offers it) or on, with the wraps that open the
 * account key. A server without the route (an older one, or the offer switched off) has it off.
 */
export async function fetchEncryptionState(): Promise<TEncryptionState> {
  try {
    return await apiRequest<TEncryptionState>(ENCRYPTION_QUERY_KEY[0]);
  } catch (error) {
    if (isApiError(error) && error.status === 404) return NOT_OFFERED;
    throw error;
  }
}
