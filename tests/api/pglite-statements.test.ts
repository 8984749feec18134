import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedPgliteQuery } from '../../src/server/db/pglite-statements';

// PGlite runs a query text asked again as a named prepared statement. These check that it answers
// exactly as PGlite's own `query`, and keeps PGlite's guarantees.
describe('named prepared statements on PGlite', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = new PGlite();
    await client.exec(`create table notes (id serial primary key, body text not null,
      written timestamptz not null default now(), extra jsonb)`);
    await client.exec(
      `insert into notes (body, extra) values ('first', '{"a":1}'), ('second', null)`,
    );
  });
  afterAll(() => client.close());

  it('answers as query() does, every time, in either row mode', async () => {
    const query = preparedPgliteQuery(client);
    const text = 'select id, body, written, extra from notes where id >= $1 order by id';
    const expected = await client.query(text, [1]);
    const expectedArrays = await client.query(text, [1], { rowMode: 'array' });
    for (let i = 0; i < 3; i += 1) {
      expect((await query(text, [1])).rows).toEqual(expected.rows);
      expect((await query(text, [1], { rowMode: 'array' })).rows).toEqual(expectedArrays.rows);
    }
    expect((await query(text, [2])).rows).toEqual([expect.objectContaining({ body: 'second' })]);
    expect(expected.rows[0]).toMatchObject({ body: 'first', extra: { a: 1 } });
  });

  it('writes, with null and date parameters, and reports errors without losing the statement', async () => {
    const query = preparedPgliteQuery(client);
    const insert = 'insert into notes (body, written, extra) values ($1, $2, $3) returning id';
    const when = new Date('2026-01-02T03:04:05.000Z');
    await query(insert, ['third', when, null]);
    await query(insert, ['fourth', when, { b: 2 }]);
    const { rows } = await client.query<{ body: string; written: Date; extra: unknown }>(
      `select body, written, extra from notes where body in ('third', 'fourth') order by id`,
    );
    expect(rows).toEqual([
      { body: 'third', written: when, extra: null },
      { body: 'fourth', written: when, extra: { b: 2 } },
    ]);
    // A null where the table forbids one: PostgreSQL's error, and the statement still works.
    await expect(query(insert, [null, when, null])).rejects.toMatchObject({ code: '23502' });
    await query(insert, ['fifth', when, null]);
    expect((await client.query(`select 1 from notes where body = 'fifth'`)).rows).toHaveLength(1);
  });

  it('waits for a transaction in progress, as query() does', async () => {
    const query = preparedPgliteQuery(client);
    const text = 'select count(*)::int as n from notes where body = $1';
    await query(text, ['sixth']);
    await query(text, ['sixth']);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query(`insert into notes (body) values ('sixth')`);
      await held;
    });
    const counted = query<{ n: number }>(text, ['sixth']);
    release();
    await transaction;
    // Asked while the transaction held the instance, answered after its commit.
    expect((await counted).rows).toEqual([{ n: 1 }]);
  });

  it('parses a statement afresh when its table changed shape under it', async () => {
    const query = preparedPgliteQuery(client);
    const text = 'select * from notes where id = $1';
    await query(text, [1]);
    await query(text, [1]);
    await client.exec('alter table notes add column mood text');
    // PostgreSQL refuses the old plan once (its result type changed); the next call re-parses.
    await query(text, [1]).catch((error: { code?: string }) => expect(error.code).toBe('0A000'));
    expect((await query(text, [1])).rows[0]).toHaveProperty('mood', null);
  });
});
