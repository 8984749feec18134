import { useQuery } from '@tanstack/react-query';
import type { TAuditLogEntry } from '@shared/schemas/audit';

/** The log is polled this often, so a new attempt on the account shows without a reload. */
export const AUDIT_LOG_POLL_MS = 10_000;

export const auditLogsQueryKey = (userId: number) => [`/api/audit-logs?userId=${userId}`] as const;

/**
 * GET /api/audit-logs?userId={id}, newest first. Unlike the app's default (never stale, no
 * refetch on focus), a security log must be current: it is fetched on every visit, on focus and
 * every 10 seconds.
 */
export function useAuditLogs(userId: number) {
  return useQuery<TAuditLogEntry[]>({
    queryKey: auditLogsQueryKey(userId),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: true,
    refetchInterval: AUDIT_LOG_POLL_MS,
  });
}
