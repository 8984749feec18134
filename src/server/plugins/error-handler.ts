import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES, type TErrorBody, type TErrorCode } from '../../shared/domain/errors';
import { isDataException, isForeignKeyViolation, isUniqueViolation } from '../db/database-errors';
import { isDatabaseUnavailable, isDiskFull } from '../db/unavailable';
import type { DiskSpace } from '../lib/disk-space';
import { AppError, CONCURRENT_CHANGE, REMOVED_MEANWHILE } from '../errors';

/** Fastify's own error codes that are the client's fault, with what we tell the client. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: TErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: MESSAGES.unsupportedMediaType,
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: MESSAGES.payloadTooLarge },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'VALIDATION', message: 'The request body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'VALIDATION',
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION', message: 'The request is malformed.' },
};

function send(
  reply: Parameters<Parameters<FastifyInstance['setErrorHandler']>[0]>[2],
  status: number,
  body: TErrorBody,
) {
  return reply.status(status).send(body);
}

/** One place that turns every failure into `{ code, message }` and hides internals on 5xx. */
export function registerErrorHandler(app: FastifyInstance, diskSpace: DiskSpace) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return send(reply, error.statusCode, {
        code: error.code,
        message: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
      });
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
        fields[key] ??= issue.message ?? 'Invalid value';
      }
      const first = error.validation[0]?.message ?? 'The request is not valid.';
      return send(reply, 400, { code: 'VALIDATION', message: first, fields });
    }

    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return send(reply, error.statusCode ?? 400, known);

    if (error.statusCode === 429) {
      return send(reply, 429, {
        code: 'RATE_LIMITED',
        message: error.message || MESSAGES.rateLimited,
      });
    }

    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      if (error.statusCode === 404)
        return send(reply, 404, { code: 'NOT_FOUND', message: MESSAGES.notFound });
      if (error.statusCode === 403) {
        return send(reply, 403, { code: 'FORBIDDEN', message: 'This is not available.' });
      }
      return send(reply, error.statusCode, {
        code: 'VALIDATION',
        message: 'The request is not valid.',
      });
    }

    if (isDiskFull(error)) {
      diskSpace.noteFull();
      request.log.error({ err: error }, 'disk full: nothing was saved');
      return send(reply, 507, { code: 'DISK_FULL', message: MESSAGES.diskFull });
    }

    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return send(reply, 503, {
        code: 'SERVICE_UNAVAILABLE',
        message: MESSAGES.databaseUnavailable,
      });
    }

    // A value the database refused (out of range, NUL in text, an impossible date) is the
    // request's fault: the schemas refuse them first, this catches any they let through.
    if (isDataException(error)) {
      request.log.warn({ err: error }, 'the database refused a value the schema let through');
      return send(reply, 400, { code: 'VALIDATION', message: MESSAGES.valueRefused });
    }

    // Two requests wrote the same thing at once and the database kept the first: the second
    // person is told plainly, and nothing of theirs was half saved.
    if (isUniqueViolation(error)) {
      request.log.warn({ err: error }, 'a unique key refused a second write');
      return send(reply, 409, { code: 'CONFLICT', message: CONCURRENT_CHANGE });
    }

    // A row referred to something another request removed meanwhile (an account deleted while
    // its checkout was on its way): that row was not saved, and the person is told why.
    if (isForeignKeyViolation(error)) {
      request.log.warn({ err: error }, 'a foreign key refused a row whose referent was removed');
      return send(reply, 409, { code: 'CONFLICT', message: REMOVED_MEANWHILE });
    }

    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, { code: 'INTERNAL', message: MESSAGES.internal });
  });
}
