import type { TErrorCode } from '@shared/domain/errors';

/** Any non-OK API answer. `code` is what the UI branches on; `message` is what it shows. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: TErrorCode | undefined;
  readonly fields: Record<string, string> | undefined;

  constructor(message: string, status: number, code?: TErrorCode, fields?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

export function isApiError(error: unknown, code?: TErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The error's message is the JSON `message`, else the whole JSON, else the plain text.
 */
export async function readApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isRecord(body)) {
    const message =
      typeof body.message === 'string' && body.message ? body.message : JSON.stringify(body);
    const code = typeof body.code === 'string' ? (body.code as TErrorCode) : undefined;
    const fields = isRecord(body.fields) ? (body.fields as Record<string, string>) : undefined;
    return new ApiError(message, response.status, code, fields);
  }
  if (body !== undefined) return new ApiError(JSON.stringify(body), response.status);
  return new ApiError(
    text.trim() || response.statusText || `Request failed (${response.status})`,
    response.status,
  );
}

/** The text to show for any thrown value. */
export function describeError(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
