import { useQuery } from '@tanstack/react-query';
import type { TTier } from '@shared/domain/enums';
import type { TBillingStatus } from '@shared/schemas/billing';
import { apiRequest } from '@web/lib/api-client';

export const BILLING_QUERY_KEY = ['/api/billing'] as const;

/** GET /api/billing: the plan this account pays for, and where its billing stands. */
export function useBillingStatus(
  options: { enabled?: boolean; refetchInterval?: number | false } = {},
) {
  return useQuery<TBillingStatus>({
    queryKey: BILLING_QUERY_KEY,
    enabled: options.enabled ?? true,
    staleTime: 0,
    refetchInterval: options.refetchInterval ?? false,
  });
}

/**
 * A subscription that still grants its plan (paid, on trial, retrying a payment, or running to the
 * end of a cancelled period): plan changes then go through the portal.
 */
export function hasLiveSubscription(status: TBillingStatus): boolean {
  return status.billedTier !== null;
}

/** Opens the provider's hosted checkout for a plan; the page leaves for it. */
export async function startCheckout(tier: TTier): Promise<void> {
  const { url } = await apiRequest<{ url: string }>('/api/billing/checkout', {
    method: 'POST',
    body: { tier },
  });
  window.location.assign(url);
}

/** Opens the provider's customer portal: plan, card, invoices, cancelling. */
export async function openBillingPortal(): Promise<void> {
  const { url } = await apiRequest<{ url: string }>('/api/billing/portal', { method: 'POST' });
  window.location.assign(url);
}
