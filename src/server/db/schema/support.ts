import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type {
  TSupportCategory,
  TSupportDiagnostics,
  TSupportStatus,
  TSupportUrgency,
} from '../../../shared/schemas/support';
import { careHomes } from './care-homes';
import { createdAt } from './columns';
import { users } from './users';

/** A care home's request for help, sent by its manager or staff and answered by the operators. */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: serial('id').primaryKey(),
    careHomeId: integer('care_home_id')
      .notNull()
      .references(() => careHomes.id, { onDelete: 'cascade' }),
    requesterId: integer('requester_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who asked, as they were named then, so the row still reads after an account goes. */
    requesterName: text('requester_name').notNull(),
    requesterEmail: text('requester_email').notNull(),
    /** Whether the home was on Professional when it asked: those are answered first. */
    isPriority: boolean('is_priority').notNull(),
    category: text('category').$type<TSupportCategory>().notNull(),
    urgency: text('urgency').$type<TSupportUrgency>().notNull(),
    description: text('description').notNull(),
    diagnostics: jsonb('diagnostics').$type<TSupportDiagnostics>(),
    status: text('status').$type<TSupportStatus>().notNull().default('received'),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    answeredById: integer('answered_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_requests_home_idx').on(t.careHomeId, t.createdAt),
    index('support_requests_open_idx').on(t.status, t.isPriority, t.dueAt),
    check('support_requests_status_check', sql`${t.status} in ('received', 'answered')`),
    check('support_requests_urgency_check', sql`${t.urgency} in ('urgent', 'normal')`),
  ],
);
