import {
  parse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
} from '@electric-sql/pglite';

/**
 * Named prepared statements for PGlite. PGlite's `query` parses
 * and plans its SQL afresh on every call, in five exchanges with PostgreSQL (Parse, Describe,
 * Bind, Describe, Execute, then Sync): for a request's lookups that was two thirds of the time
 * the query took. Here a text seen a second time is parsed once into a named statement, and each
 * later call is one exchange (Bind, Describe, Execute, Sync) that reuses PostgreSQL's plan, as
 * node-postgres does with a named query on a server.
 *
 * Calls queue on the instance's own locks exactly as `query` does (a transaction in progress
 * holds them), and the answer is read by PGlite's own result parser with the same options.
 */
export type PgliteQuery = <T>(
  text: string,
  params?: unknown[],
  options?: QueryOptions,
) => Promise<Results<T>>;

interface Statement {
  name: string;
  paramTypes: number[];
}

/** Distinct texts kept as statements: the app's queries are a few hundred at most. */
const MAX_STATEMENTS = 300;
/** Texts counted before their second call; forgotten all at once when full. */
const MAX_COUNTED = 2_000;

const { serialize } = protocol;
/** Numbers every statement's name, unique across all wrappers of every instance. */
let named = 0;
/** PostgreSQL's 'cached plan must not change result type'. */
const STALE_PLAN = '0A000';

function concat(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

export function preparedPgliteQuery(client: PGlite): PgliteQuery {
  const statements = new Map<string, Statement>();
  const seenOnce = new Set<string>();

  /** Parses `text` into a named statement; PostgreSQL keeps it for this session's lifetime. */
  async function prepare(text: string): Promise<Statement> {
    const name = `memento_${(named += 1)}`;
    const { messages } = await client.execProtocol(
      concat([
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    seenOnce.delete(text);
    return statement;
  }

  async function execute<T>(
    statement: Statement,
    params: unknown[],
    options: QueryOptions | undefined,
  ): Promise<Results<T>> {
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[index]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await client.execProtocol(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
  }

  return async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
    // What only `query` handles (files in and out, chosen parameter types) goes there.
    if (options?.blob || options?.paramTypes) return client.query<T>(text, params, options);
    const isPrepared = statements.has(text);
    const isAskedAgain = seenOnce.has(text) && statements.size < MAX_STATEMENTS;
    if (!isPrepared && !isAskedAgain) {
      if (seenOnce.size >= MAX_COUNTED) seenOnce.clear();
      seenOnce.add(text);
      return client.query<T>(text, params, options);
    }
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const statement = statements.get(text) ?? (await prepare(text));
        try {
          return await execute<T>(statement, params, options);
        } catch (error) {
          // A statement whose tables changed shape under it is parsed afresh next time.
          if ((error as { code?: string }).code === STALE_PLAN) statements.delete(text);
          throw error;
        } finally {
          // As `query` does outside a transaction: what the statement wrote reaches the disk.
          await client.syncToFs();
        }
      }),
    );
  };
}
