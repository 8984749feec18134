import { Column, is, sql, type SQL } from 'drizzle-orm';

/**
 * Rows that come back from the database as one JSON value instead of a column each (issue 15
 * item 1, decision 032). Each field a driver returns is parsed on its own, in JavaScript: PGlite
 * copies and decodes every one, so a request's lookups with their thirty-odd columns, or a list
 * of twenty rows, cost more in that parsing than in PostgreSQL itself. As JSON, the same row is
 * one field; the driver parses it with `JSON.parse`, and each value is then mapped by its own
 * column, exactly as Drizzle maps a plain select.
 */
type Fields = Record<string, Column | SQL>;

export type JsonRow<T extends Fields> = {
  [K in keyof T]: T[K] extends Column
    ? T[K]['_']['notNull'] extends true
      ? T[K]['_']['data']
      : T[K]['_']['data'] | null
    : T[K] extends SQL<infer V>
      ? V
      : never;
};

/** Reads one JSON object into a row: by property name, or by column name for a whole row. */
function readObject<T extends Fields>(
  fields: T,
  json: Record<string, unknown>,
  keyedBy: 'property' | 'column',
): JsonRow<T> {
  const row: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    const isColumn = is(field, Column);
    const value = json[keyedBy === 'column' && isColumn ? field.name : key];
    // A json or jsonb column, or an expression, arrives as JSON made it.
    row[key] =
      value === null || value === undefined
        ? null
        : isColumn && field.dataType !== 'json'
          ? field.mapFromDriverValue(value)
          : value;
  }
  return row as JsonRow<T>;
}

function buildObject(fields: Fields): SQL {
  const pairs = Object.entries(fields).map(
    // The keys are property names written in our own code, never input.
    ([key, field]) => sql`${sql.raw(`'${key}'`)}, ${field}`,
  );
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** Chosen fields of one row as one JSON value; NULL when `presentWhen` is (a left join's miss). */
export function jsonObject<T extends Fields>(
  fields: T,
  presentWhen: Column,
): SQL<JsonRow<T> | null> {
  return sql`case when ${presentWhen} is null then null else ${buildObject(fields)} end`.mapWith(
    (json: Record<string, unknown>) => readObject(fields, json, 'property'),
  );
}

/** `element` of every matching row, in `orderBy`'s order, as one JSON array (`[]` for none). */
function jsonList<T extends Fields>(
  element: SQL,
  orderBy: SQL,
  read: (item: Record<string, unknown>) => JsonRow<T>,
): SQL<JsonRow<T>[]> {
  return sql`coalesce(json_agg(${element} order by ${orderBy}), '[]'::json)`.mapWith(
    (json: Record<string, unknown>[]) => json.map(read),
  );
}

/** Chosen fields of every matching row, in `orderBy`'s order, as one JSON array. */
export function jsonArray<T extends Fields>(fields: T, orderBy: SQL): SQL<JsonRow<T>[]> {
  return jsonList(buildObject(fields), orderBy, (item) => readObject(fields, item, 'property'));
}

/**
 * Every column of one row of `source` (a table, or a subquery's alias, in the FROM clause) as
 * one JSON value: PostgreSQL's `to_json` of the whole row, cheaper to build than naming each.
 */
export function jsonWholeRow<T extends Record<string, Column>>(
  source: string,
  columns: T,
): SQL<JsonRow<T>> {
  return sql`to_json(${sql.identifier(source)})`.mapWith((json: Record<string, unknown>) =>
    readObject(columns, json, 'column'),
  );
}

/** Every column of every matching row of `source`, in `orderBy`'s order, as one JSON array. */
export function jsonWholeRows<T extends Record<string, Column>>(
  source: string,
  columns: T,
  orderBy: SQL,
): SQL<JsonRow<T>[]> {
  return jsonList(sql`${sql.identifier(source)}`, orderBy, (item) =>
    readObject(columns, item, 'column'),
  );
}
