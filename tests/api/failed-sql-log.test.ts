import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/shared/domain/errors';
import { createOnboardedUser, useTestApp } from '../setup/app';

// A statement that fails never writes the values it was sent to the log: they are people's
// names, emails and codes. The database is made to refuse a real request's insert (a check
// constraint, and a trigger raising a data exception as PostgreSQL's own range checks do, with
// the value in its message); the app's own log lines are read back.

const PERSON = {
  firstName: 'Zebedee',
  lastName: 'Quibblethwaite',
  email: 'zebedee.quibblethwaite@example.test',
  category: 'family',
};
const VALUES = ['Zebedee', 'Quibblethwaite', 'zebedee.quibblethwaite@example.test'];

const lines: string[] = [];
const t = useTestApp({
  env: { LOG_LEVEL: 'info' },
  logStream: { write: (line) => lines.push(line) },
});
let owner: Awaited<ReturnType<typeof createOnboardedUser>>;
beforeAll(async () => {
  owner = await createOnboardedUser(t);
});

function logLinesAbout(message: string): Array<Record<string, unknown>> {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === message);
}

function expectNoValueIn(text: string) {
  for (const value of VALUES) expect(text).not.toContain(value);
  expect(text).not.toMatch(/"params"/);
}

describe('failed SQL in the log', () => {
  it('logs a refused insert by its SQLSTATE, constraint and statement, without its values', async () => {
    await t.db.execute(
      sql.raw(`alter table users add constraint fault_no_zebedee check (first_name <> 'Zebedee')`),
    );
    try {
      lines.length = 0;
      const res = await owner.device.post('/api/recipients', PERSON);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 'INTERNAL', message: MESSAGES.internal });

      const [entry] = logLinesAbout('unhandled error');
      const err = entry!.err as Record<string, unknown>;
      expect(entry!.level).toBe(50);
      // Drizzle's wrapper names the statement by its text with placeholders; its cause, the
      // database's answer, by SQLSTATE and constraint.
      expect(String(err.query)).toMatch(/insert into "users"/);
      expect(String(err.query)).toMatch(/\$1/);
      expect(err.cause).toMatchObject({ code: '23514', constraint: 'fault_no_zebedee' });
      expectNoValueIn(lines.join('\n'));
    } finally {
      await t.db.execute(sql.raw('alter table users drop constraint fault_no_zebedee'));
    }
  });

  it('answers a value the database refuses with a 400 and logs it without the value', async () => {
    // As PostgreSQL's own `value "…" is out of range for type integer`: the message holds the value.
    await t.db.execute(
      sql.raw(`
        create function fault_out_of_range() returns trigger language plpgsql as $$
        begin
          if new.last_name = 'Quibblethwaite' then
            raise exception 'value "%" is out of range', new.last_name using errcode = '22003';
          end if;
          return new;
        end $$`),
    );
    await t.db.execute(
      sql.raw(
        'create trigger fault_out_of_range before insert on users for each row execute function fault_out_of_range()',
      ),
    );
    try {
      lines.length = 0;
      const res = await owner.device.post('/api/recipients', PERSON);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION', message: MESSAGES.valueRefused });

      const [entry] = logLinesAbout('the database refused a value the schema let through');
      expect(entry!.level).toBe(40);
      expect((entry!.err as Record<string, unknown>).cause).toMatchObject({
        code: '22003',
        message: 'database error 22003 (data exception)',
      });
      expectNoValueIn(lines.join('\n'));
      // Nothing was added.
      const list = await owner.device.get('/api/recipients');
      expect(JSON.stringify(list.json())).not.toContain('Zebedee');
    } finally {
      await t.db.execute(sql.raw('drop trigger fault_out_of_range on users'));
      await t.db.execute(sql.raw('drop function fault_out_of_range()'));
    }
  });
});
