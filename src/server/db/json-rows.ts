import { Column, is, sql, type SQL } from 'drizzle-orm';

/**
 * Rows that come back from the database as one JSON value instead of a column each (issue 15
 * item 1, decision 032). Each field a driver returns is parsed on its own, in JavaScript: PGlite
 * copies and decodes every one, so a request's lookups with their thirty-odd columns, or a list
 * of twenty rows, cost more in that parsing than in PostgreSQL itself. Built as
 * `json_build_object`, the same row is one field; the driver parses it with `JSON.parse`, and each
 * value is then mapped by its own column, exactly as Drizzle maps a plain select.
 */
type Columns = Record<string, Column | SQL>;

export type JsonRow<T extends Columns> = {
  [K in keyof T]: T[K] extends Column
    ? T[K]['_']['notNull'] extends true
      ? T[K]['_']['data']
      : T[K]['_']['data'] | null
    : T[K] extends SQL<infer V>
      ? V
      : never;
};

function buildObject(columns: Columns): SQL {
  const pairs = Object.entries(columns).map(
    // The keys are property names written in our own code, never input.
    ([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`,
  );
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

function readObject<T extends Columns>(columns: T, json: Record<string, unknown>): JsonRow<T> {
  const row: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(columns)) {
    const value = json[key];
    // A json or jsonb column, or an expression, arrives as JSON made it.
    row[key] =
      value === null || value === undefined
        ? null
        : is(field, Column) && field.dataType !== 'json'
          ? field.mapFromDriverValue(value)
          : value;
  }
  return row as JsonRow<T>;
}

/** One row as one JSON value; NULL (read as `null`) when `presentWhen` is NULL (a left join's miss). */
export function jsonObject<T extends Columns>(
  columns: T,
  presentWhen?: Column,
): SQL<JsonRow<T> | null> {
  const object = buildObject(columns);
  const expression = presentWhen
    ? sql`case when ${presentWhen} is null then null else ${object} end`
    : object;
  return expression.mapWith((json: Record<string, unknown>) => readObject(columns, json));
}

/** Every matching row, in `orderBy`'s order, as one JSON array: one field however many rows. */
export function jsonArray<T extends Columns>(columns: T, orderBy: SQL): SQL<JsonRow<T>[]> {
  return sql`coalesce(json_agg(${buildObject(columns)} order by ${orderBy}), '[]'::json)`.mapWith(
    (json: Record<string, unknown>[]) => json.map((item) => readObject(columns, item)),
  );
}
