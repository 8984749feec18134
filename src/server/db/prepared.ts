import type { DbOrTx } from './client';

/**
 * A statement prepared once per database handle: the hot reads skip building
 * their SQL on every request and, on PostgreSQL, reuse one named statement and its plan per
 * connection. Each name must stand for exactly one SQL text; values go in as placeholders.
 */
export function definePrepared<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const statements = new WeakMap<DbOrTx, T>();
  return (db) => {
    let statement = statements.get(db);
    if (statement === undefined) {
      statement = build(db);
      statements.set(db, statement);
    }
    return statement;
  };
}
