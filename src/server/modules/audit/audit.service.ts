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

export interface AuditEvent {
  eventType: TAuditEventType;
  userId?: number | null;
  username?: string | null;
  successful?: boolean;
  details?: Record<string, unknown>;
}

/** Appends one security event; timestamps are UTC (timestamptz). */
export function recordAudit(db: DbOrTx, context: RequestContext, event: AuditEvent): Promise<void> {
  return insertAuditRow(db, {
    eventType: event.eventType,
    userId: event.userId ?? null,
    username: event.username ?? null,
    successful: event.successful ?? true,
    ipAddress: context.ip,
    deviceId: context.deviceId,
    details: { ...event.details, userAgent: context.userAgent ?? null },
  });
}
