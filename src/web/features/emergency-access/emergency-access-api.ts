import type { TEmergencyAccessBody } from '@shared/schemas/emergency-access';
import { apiRequest } from '@web/lib/api-client';

/**
 * POST /api/break-glass-reset. With a code: the /auth form. Without: the dashboard variant, only
 * for a next of kin signed in with their access code in the last 15 minutes: a session alone
 * must not be a takeover key.
 */
export function resetWithEmergencyCode(body: TEmergencyAccessBody): Promise<{ message: string }> {
  return apiRequest('/api/break-glass-reset', { method: 'POST', body });
}

export const EMERGENCY_TEXT = {
  failed: 'Emergency access failed',
  dialogTitle: 'Next of Kin Emergency Access',
  codePlaceholder: 'ABCD-EFGH-JKLM-NP23',
} as const;
