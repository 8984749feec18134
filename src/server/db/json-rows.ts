import { Column, is, sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * Rows that come back from the database as one JSON value instead of a column each. Each field
 * a driver returns is parsed on its own, in JavaScript: PGlite
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

/** How each JSON value built here is read back, so that a statement nesting it reads it alike. */
const readers = new WeakMap<SQL, (json: never) => unknown>();

function readWith<T>(value: SQL, read: (json: never) => T): SQL<T> {
  const mapped = value.mapWith(read);
  readers.set(mapped, read);
  return mapped;
}

/**
 * `expression` (which yields what `value` yields, or NULL) read back as `value` is: for a JSON
 * value used inside a larger expression, such as a CASE between two of them.
 */
export function readAs<T>(value: SQL<T>, expression: SQL): SQL<T> {
  const read = readers.get(value);
  if (!read) throw new Error('readAs: the value was not built by json-rows');
  return readWith(expression, read) as SQL<T>;
}

/** How one field of a JSON object is read: from which key, and mapped by which column. */
type FieldReader = { key: string; jsonKey: string; column: Column | null };

/** Worked out once per set of fields, not per row: Drizzle's `is()` is slow next to a lookup. */
const fieldReaders = new WeakMap<Fields, Record<'property' | 'column', FieldReader[]>>();

function readersOf(fields: Fields, keyedBy: 'property' | 'column'): FieldReader[] {
  let known = fieldReaders.get(fields);
  if (!known) {
    const entries = Object.entries(fields).map(([key, field]) => {
      const isColumn = is(field, Column);
      return {
        key,
        name: isColumn ? field.name : null,
        // A json or jsonb column, or an expression, arrives as JSON made it.
        column: isColumn && field.dataType !== 'json' ? field : null,
      };
    });
    known = {
      property: entries.map(({ key, column }) => ({ key, jsonKey: key, column })),
      column: entries.map(({ key, name, column }) => ({ key, jsonKey: name ?? key, column })),
    };
    fieldReaders.set(fields, known);
  }
  return known[keyedBy];
}

/** Reads one JSON object into a row: by property name, or by column name for a whole row. */
function readObject<T extends Fields>(
  fields: T,
  json: Record<string, unknown>,
  keyedBy: 'property' | 'column',
): JsonRow<T> {
  const row: Record<string, unknown> = {};
  for (const { key, jsonKey, column } of readersOf(fields, keyedBy)) {
    const value = json[jsonKey];
    row[key] =
      value === null || value === undefined
        ? null
        : column
          ? column.mapFromDriverValue(value)
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

/** Chosen fields of one row as one JSON value, read back by property name. */
export function jsonFields<T extends Fields>(fields: T): SQL<JsonRow<T>> {
  return readWith(buildObject(fields), (json: Record<string, unknown>) =>
    readObject(fields, json, 'property'),
  );
}

/** Chosen fields of one row as one JSON value; NULL when `presentWhen` is (a left join's miss). */
export function jsonObject<T extends Fields>(
  fields: T,
  presentWhen: Column,
): SQL<JsonRow<T> | null> {
  const object = jsonFields(fields);
  return readAs(object, sql`case when ${presentWhen} is null then null else ${object} end`);
}

/**
 * The one JSON value `query` selects from each of its rows (`element`, built here), in the
 * query's own ORDER BY, as one JSON array: `[]` for none. ARRAY(subquery) keeps the subquery's
 * order, so an index that gives that order is read without sorting; an aggregate's own ORDER BY
 * (`json_agg(… order by …)`) sorts its input again on PostgreSQL 15, whatever the index gives.
 */
export function jsonArrayOf<T>(query: SQLWrapper, element: SQL<T>): SQL<T[]> {
  const read = readers.get(element);
  if (!read) throw new Error('jsonArrayOf: the element was not built by json-rows');
  return readWith(sql`array_to_json(array(${query}))`, (json: never[]) => json.map(read) as T[]);
}

/**
 * JSON as the text PostgreSQL wrote it: a response body sent as it is, never
 * parsed into objects only to be written out again.
 */
export type JsonText = string & { readonly __jsonText: true };

/**
 * The JSON texts `query` selects (one column the database keeps, such as videos.index_entry),
 * in the query's own ORDER BY, joined into the text of one JSON array: `[]` for
 * none. Nothing is built per request; the texts are the response. As in `jsonArrayOf`, the
 * order comes from the query (and its index), not from sorting again.
 */
export function joinedJsonTexts(query: SQLWrapper): SQL<JsonText> {
  return readWith(
    sql`'[' || array_to_string(array(${query}), ',') || ']'`,
    (text: string) => text as JsonText,
  );
}

/**
 * Every column of one row of `source` (a table, or a subquery's alias, in the FROM clause) as
 * one JSON value: PostgreSQL's `to_json` of the whole row, cheaper to build than naming each.
 */
export function jsonWholeRow<T extends Record<string, Column>>(
  source: string,
  columns: T,
): SQL<JsonRow<T>> {
  return readWith(sql`to_json(${sql.identifier(source)})`, (json: Record<string, unknown>) =>
    readObject(columns, json, 'column'),
  );
}
