/** Socket-level failures: the database's host or the path to it is gone. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own answers that mean 'not now' rather than 'wrong': class 08 (connection
 * exception), shutting down or starting up (57P01–57P03), too many connections (53300).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres reports a cut link and its own time-outs by message only. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
];

function isUnavailableCause(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) {
      return true;
    }
  }
  if (error instanceof AggregateError && error.errors.some(isUnavailableCause)) return true;
  return UNAVAILABLE_MESSAGES.some((message) => error.message.includes(message));
}

/**
 * Whether a failure means the database cannot be reached just now (so the caller should hear
 * 503 and try again), as opposed to a bug. Drizzle wraps driver errors, so the cause chain is
 * followed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (isUnavailableCause(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether a failure means a disk is full: the file system's ENOSPC (PGlite, uploads, mail), or
 * PostgreSQL's disk_full (53100) and its 'could not extend file' errors.
 */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      if (code === 'ENOSPC' || code === '53100') return true;
      if (/No space left on device|could not extend file|disk full/i.test(current.message)) {
        return true;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
