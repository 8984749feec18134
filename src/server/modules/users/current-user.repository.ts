import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { jsonArrayOf, jsonFields } from '../../db/json-rows';
import { legacyReleases, users } from '../../db/schema';
import { defineContextRead, type ContextRead } from '../auth/request-context.repository';

const requesters = alias(users, 'requesters');

const WAITING_RELEASE_FIELDS = {
  requestedAt: legacyReleases.requestedAt,
  releasesAt: legacyReleases.releasesAt,
  requesterId: requesters.id,
  requesterFirstName: requesters.firstName,
  requesterLastName: requesters.lastName,
};

/**
 * The reader's legacy release while it waits (none or one: one waits per owner), read with the
 * request's own lookups on the partial index of waiting releases. An array, never NULL, since
 * the route's read answers NULL only for a request without a session.
 */
export const WAITING_RELEASE_READ = defineContextRead('waiting_release', (db, reader) => {
  const row = jsonFields(WAITING_RELEASE_FIELDS);
  const query = db
    .select({ row })
    .from(legacyReleases)
    .leftJoin(requesters, eq(requesters.id, legacyReleases.requestedById))
    .where(and(eq(legacyReleases.ownerId, reader.userId), eq(legacyReleases.status, 'waiting')));
  return jsonArrayOf(query, row);
});

/** What the read answers: the waiting release's row, or none. */
export type WaitingReleaseRows =
  typeof WAITING_RELEASE_READ extends ContextRead<infer T> ? T : never;
