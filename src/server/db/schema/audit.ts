import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TAuditEventType } from '../../../shared/domain/enums';
import { xid8 } from './columns';

/** The security log. */

/**
 * Append-only security log. userId has no foreign key on purpose: rows outlive the
 * account they describe and keep its username.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: serial('id').primaryKey(),
    eventType: text('event_type').$type<TAuditEventType>().notNull(),
    userId: integer('user_id'),
    username: text('username'),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    deviceId: uuid('device_id'),
    successful: boolean('successful').notNull().default(true),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** The details in words, and who did it (audit.presenter.ts), written with the row. */
    summary: text('summary'),
    actor: text('actor'),
    /**
     * The row as the audit log shows it (TAuditLogEntry), as JSON text written by the database on
     * every insert and update; NULL only for a row from before
     * 0010 not yet worded (`wordEarlierAuditEntries`).
     */
    entry: text('entry'),
    /**
     * The transaction that last wrote `entry`, set by the same trigger: which
     * entries a reader's snapshot had not seen, so that a server may send a page it cached while
     * none has come since. NULL for a row from before 0012 until it is written.
     */
    entryWrittenIn: xid8('entry_written_in'),
  },
  (t) => [
    index('audit_logs_user_time_idx').on(t.userId, t.timestamp),
    index('audit_logs_failures_idx').on(t.userId, t.eventType, t.deviceId, t.timestamp),
    // The admin's log of every account, newest first (millions of rows).
    index('audit_logs_time_idx').on(t.timestamp, t.id),
    // The rows from before migration 0010 still to be worded: none, once they are.
    index('audit_logs_unworded_idx')
      .on(t.id)
      .where(sql`${t.entry} is null`),
    // The entries written since a snapshot: one account's (its own page), and everyone's.
    index('audit_logs_user_written_idx')
      .on(t.userId, t.entryWrittenIn)
      .where(sql`${t.entryWrittenIn} is not null`),
    index('audit_logs_written_idx')
      .on(t.entryWrittenIn)
      .where(sql`${t.entryWrittenIn} is not null`),
  ],
);
