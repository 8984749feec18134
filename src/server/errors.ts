import type { TErrorCode } from '../shared/domain/errors';

const STATUS_BY_CODE: Record<TErrorCode, number> = {
  VALIDATION: 400,
  DEVICE_REQUIRED: 400,
  DEVICE_NOT_FOUND: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_CODE: 400,
  CODE_NEEDED: 401,
  PASSWORD_NEEDED: 401,
  FORBIDDEN: 403,
  ORIGIN_MISMATCH: 403,
  NOT_PRIMARY_DEVICE: 403,
  RESET_NEEDS_OWNER: 403,
  UPGRADE_REQUIRED: 403,
  STORAGE_FULL: 403,
  NOT_FOUND: 404,
  DEVICE_HAS_PRIMARY_ACCOUNT: 409,
  LAST_NEXT_OF_KIN: 409,
  SECOND_FACTOR_REQUIRED: 403,
  HAS_DEPENDENTS: 409,
  LAST_ADMIN: 409,
  CONFLICT: 409,
  SIGN_IN_EXPIRED: 400,
  LAST_SIGN_IN_METHOD: 409,
  MAIL_FAILED: 502,
  BILLING_DISABLED: 400,
  USERNAME_TAKEN: 409,
  EMAIL_TAKEN: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  ACCOUNT_DELAYED: 429,
  SERVICE_UNAVAILABLE: 503,
  DISK_FULL: 507,
  INTERNAL: 500,
};

/** What a person hears when another window or click did the same thing a moment before. */
export const CONCURRENT_CHANGE =
  'That was just done from another window. Please refresh the page and try again.';

/** What a person hears when something their request refers to was removed a moment before. */
export const REMOVED_MEANWHILE =
  'Something this refers to was removed a moment ago. Please refresh the page and try again.';

/** The one error type services throw; the error handler maps `code` to an HTTP status. */

export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = STATUS_BY_CODE[code];
  }
}
