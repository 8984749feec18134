import { z } from 'zod';
import { ZUserId } from './common';

/** One row of the activity log, as the owner and the administrator read it. */
export interface TAuditLogEntry {
  id: number;
  eventType: string;
  userId: number | null;
  username: string | null;
  timestamp: string;
  ipAddress: string | null;
  successful: boolean;
  details: string | null;
  /**
   * Who did it, when not the account's owner: 'Ann Hale, next of kin', 'Administrator ada',
   * 'Someone using ann@example.com'. Null for the owner's own events.
   */
  actor: string | null;
}

export const ZAuditLogQuery = z.object({
  userId: ZUserId.optional(),
});
