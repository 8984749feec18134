import type { DbOrTx } from '../../db/client';
import type { TAuditEventType } from '../../../shared/domain/enums';
import { insertAuditRow } from './audit.repository';

/** A page of an account's log, read with the request. */
export { AUDIT_PAGE_READ } from './audit.repository';

/** Who is asking, from where: carried from the route into services for audit rows. */
export interface RequestContext {
  ip: string;
  userAgent: string | undefined;
  deviceId: string | null;
}

/** Timed work has no request: its rows name the job, and no address or device. */
export interface JobContext {
  job: string;
}

/** Who an audit row says acted: a request, or a timed job. */
export type AuditContext = RequestContext | JobContext;

export interface AuditEvent {
  eventType: TAuditEventType;
  userId?: number | null;
  username?: string | null;
  successful?: boolean;
  details?: Record<string, unknown>;
}

/** Appends one security event; timestamps are UTC (timestamptz). */
export function recordAudit(db: DbOrTx, context: AuditContext, event: AuditEvent): Promise<void> {
  const source =
    'job' in context
      ? { ipAddress: null, deviceId: null, details: { job: context.job, userAgent: null } }
      : {
          ipAddress: context.ip,
          deviceId: context.deviceId,
          details: { userAgent: context.userAgent ?? null },
        };
  return insertAuditRow(db, {
    eventType: event.eventType,
    userId: event.userId ?? null,
    username: event.username ?? null,
    successful: event.successful ?? true,
    ipAddress: source.ipAddress,
    deviceId: source.deviceId,
    details: { ...event.details, ...source.details },
  });
}

/** One event on an account's own log, named by its id and username. */
export function recordAccountEvent(
  db: DbOrTx,
  context: AuditContext,
  account: { id: number; username: string },
  event: Omit<AuditEvent, 'userId' | 'username'>,
): Promise<void> {
  return recordAudit(db, context, { ...event, userId: account.id, username: account.username });
}
