import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacyReleases } from '../../src/server/db/schema';
import type { TUser } from '../../src/shared/schemas/auth';
import { buildTestApp, createOnboardedUser, type TestApp } from '../setup/app';
import { createDeviceSignedInByCode } from './support/recipients';

/**
 * Every statement the app sends for `run`, as Drizzle executes it: its session's logger is told
 * of each execution, prepared or not, on either engine. Only statements made in `run`'s own async
 * context count, so a background job's poll landing in the same moment is not one of them. Set
 * before the app's first request, so every prepared statement carries it.
 */
function statementCounter(testApp: TestApp) {
  const running = new AsyncLocalStorage<string[]>();
  (testApp.db as unknown as { session: { logger: unknown } }).session.logger = {
    logQuery: (query: string) => running.getStore()?.push(query),
  };
  return async <T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }> => {
    const seen: string[] = [];
    const result = await running.run(seen, run);
    return { result, statements: seen };
  };
}

describe('one statement a request', () => {
  let t: TestApp;
  let counted: ReturnType<typeof statementCounter>;

  beforeAll(async () => {
    t = await buildTestApp();
    counted = statementCounter(t);
  });
  afterAll(() => t.close());

  it('GET /api/user answers an owner, with the legacy release waiting, in one statement', async () => {
    const owner = await createOnboardedUser(t);
    const quiet = await counted(() => owner.device.get('/api/user'));
    expect(quiet.result.json<TUser>().legacyRelease).toBeNull();
    expect(quiet.statements).toHaveLength(1);

    const requestedAt = new Date('2030-06-01T12:00:00.123Z');
    const releasesAt = new Date('2030-06-08T12:00:00.456Z');
    await t.db.insert(legacyReleases).values({
      ownerId: owner.user.id,
      requestedById: owner.nextOfKin.id,
      status: 'waiting',
      requestedAt,
      releasesAt,
      cancelTokenHash: 'one-statement-test',
    });
    const waiting = await counted(() => owner.device.get('/api/user'));
    expect(waiting.result.statusCode).toBe(200);
    expect(waiting.result.json<TUser>().legacyRelease).toEqual({
      requestedAt: requestedAt.toISOString(),
      releasesAt: releasesAt.toISOString(),
      requestedBy: { firstName: 'Susan', lastName: 'Hill' },
    });
    expect(waiting.statements).toHaveLength(1);
  });

  it('GET /api/user answers a recipient in one statement, with no legacy release at all', async () => {
    const owner = await createOnboardedUser(t);
    const device = await createDeviceSignedInByCode(t, owner.nextOfKin.id);
    const { result, statements } = await counted(() => device.get('/api/user'));
    expect(result.statusCode).toBe(200);
    expect(result.json<TUser>()).not.toHaveProperty('legacyRelease');
    expect(statements).toHaveLength(1);
  });
});
