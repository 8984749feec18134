import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers the tables share. */

/** A transaction id, 64 bits, as PostgreSQL's pg_current_xact_id() gives it; read as text. */
export const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
