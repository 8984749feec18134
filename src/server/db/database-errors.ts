import { DrizzleQueryError } from 'drizzle-orm/errors';

/**
 * What a log line may hold of a failed statement. A failed query carries the values it was sent
 * in several places: Drizzle's message and `params`, PGlite's `params` on its own error, and the
 * server's message and `detail` (`value "…" is out of range`, `Key (email)=(…) already exists`).
 * Those are people's emails, names and codes, so the log keeps the SQLSTATE, the statement's text
 * with its placeholders, and the names of the table, column and constraint; never a value.
 */

/** PostgreSQL's error classes, as an operator reads them (the first two characters of SQLSTATE). */
const SQLSTATE_CLASSES: Record<string, string> = {
  '08': 'connection exception',
  '22': 'data exception',
  '23': 'integrity constraint violation',
  '25': 'invalid transaction state',
  '40': 'transaction rollback',
  '42': 'syntax error or access rule violation',
  '53': 'insufficient resources',
  '54': 'program limit exceeded',
  '55': 'object not in prerequisite state',
  '57': 'operator intervention',
  '58': 'system error',
  XX: 'internal error',
};

/** Names of things in the schema: safe to log, and what an operator needs to find the cause. */
const NAMED_FIELDS = ['severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'];

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** An error the database server (PostgreSQL or PGlite) sent: it has a SQLSTATE and a severity. */
function isServerError(error: unknown): error is Error & Record<string, unknown> {
  if (!(error instanceof Error)) return false;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string';
}

function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** The SQLSTATE of the database's answer behind a failure, if a database answered. */
export function sqlStateOf(error: unknown): string | undefined {
  const answer = causesOf(error).find(isServerError);
  return answer?.code as string | undefined;
}

/**
 * Whether the database refused a value it was sent (class 22: out of range, NUL in text, an
 * impossible date…): the request's fault, which a schema should have caught.
 */
export function isDataException(error: unknown): boolean {
  return sqlStateOf(error)?.startsWith('22') ?? false;
}

/** Whether a unique index refused a row (SQLSTATE 23505): two writes of the same thing raced. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

/**
 * Whether a foreign key refused a row (SQLSTATE 23503): what it refers to was removed meanwhile,
 * as an account deleted while one of its requests was still on its way.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23503';
}

/** The stack's frames without its first line, which repeats the message. */
function framesOf(error: Error): string {
  return (error.stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .join('\n');
}

function describeDatabaseError(error: Error): LoggedError {
  const described: LoggedError = {
    type: error instanceof DrizzleQueryError ? 'DrizzleQueryError' : 'DatabaseError',
    message: '',
    stack: '',
  };
  if (error instanceof DrizzleQueryError) {
    described.message = 'Failed query';
    described.query = error.query;
  } else {
    const code = (error as unknown as { code: string }).code;
    described.message = `database error ${code} (${SQLSTATE_CLASSES[code.slice(0, 2)] ?? 'other'})`;
    described.code = code;
    for (const field of NAMED_FIELDS) {
      const value = (error as unknown as Record<string, unknown>)[field];
      if (typeof value === 'string') described[field] = value;
    }
    const query = (error as { query?: unknown }).query;
    if (typeof query === 'string') described.query = query;
  }
  described.stack = framesOf(error);
  return described;
}

function describePlainError(error: Error): LoggedError {
  const described: LoggedError = {
    type: error.constructor.name,
    message: error.message,
    stack: error.stack ?? '',
  };
  for (const [key, value] of Object.entries(error)) {
    if (key !== 'cause' && key !== 'params' && !(key in described)) described[key] = value;
  }
  return described;
}

export interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/**
 * The log's serializer for `err`: any error as pino's own serializer shows it (type, message,
 * stack, its own fields, its causes), except that a database's error, or Drizzle's wrapper of one,
 * keeps only what names the failure, never the values the statement was sent.
 */
export function serializeError(error: Error, depth = 0): LoggedError {
  const isDatabase = error instanceof DrizzleQueryError || isServerError(error);
  const described = isDatabase ? describeDatabaseError(error) : describePlainError(error);
  const nested = (inner: unknown) =>
    inner instanceof Error ? serializeError(inner, depth + 1) : inner;
  if (error instanceof AggregateError && depth < 3) {
    described.aggregateErrors = error.errors.map(nested);
  }
  if (error.cause !== undefined && depth < 5) described.cause = nested(error.cause);
  return described;
}

/** An error's message for a log line or a stored note: a database's error names only its failure. */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const isDatabase = error instanceof DrizzleQueryError || isServerError(error);
  if (!isDatabase) return error.message;
  const answer = causesOf(error).find(isServerError);
  const described = describeDatabaseError(answer ?? error);
  return answer ? String(described.message) : `Failed query: ${String(described.query)}`;
}
