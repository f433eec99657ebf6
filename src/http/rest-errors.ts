// The one place GraphQL errors become REST errors: `{ error: { code, message, details? } }`
// with the status the error carries (AppError's `restStatus`), or the status the failure kind
// implies for errors raised by sofa and graphql-js themselves.
import type { GraphQLError } from 'graphql';
import { AppError, errorBody, STATUS_BY_CODE, type ErrorCode } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function errorResponse(status: number, code: ErrorCode, message: string, details?: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(errorBody(code, message, details)), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** What a client is told while the database cannot be reached (db/errors.ts isDatabaseUnavailable). */
export const DATABASE_UNAVAILABLE = {
  code: 'SERVICE_UNAVAILABLE' as const,
  message: 'The service is temporarily unavailable (database unreachable or saturated); retry after the number of seconds in Retry-After',
  retryAfterSeconds: 2,
} as const;

export function databaseUnavailableResponse(): Response {
  return errorResponse(503, DATABASE_UNAVAILABLE.code, DATABASE_UNAVAILABLE.message, undefined, { 'retry-after': String(DATABASE_UNAVAILABLE.retryAfterSeconds) });
}

export function appErrorResponse(error: AppError): Response {
  return errorResponse(error.status, error.code, error.message, error.details);
}

// graphql-js messages for variables that are missing or of the wrong type.
const MISSING_VARIABLE = /^Variable "\$(\w+)" of required type "[^"]+" was not provided\.$/;
const INVALID_VARIABLE = /^Variable "\$(\w+)" got invalid value (?:.*?); (.*)$/s;

interface Classified {
  status: number;
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** The argument a graphql-js/sofa refusal names (`... argument "limit" ...`), else the body. */
function fieldNamed(message: string): string {
  return /(?:argument|Variable) "\$?(\w+)"/.exec(message)?.[1] ?? 'body';
}

function classify(error: GraphQLError): Classified {
  const ext = (error.extensions ?? {}) as { code?: string; restStatus?: number; details?: unknown; http?: { status?: number } };
  if (ext.restStatus && ext.code && ext.code in STATUS_BY_CODE) return { status: ext.restStatus, code: ext.code as ErrorCode, message: error.message, details: ext.details };
  if (error.message === 'POST body sent invalid JSON.') return { status: 400, code: 'BAD_REQUEST', message: 'Malformed JSON body' };
  const missing = MISSING_VARIABLE.exec(error.message);
  if (missing) return { status: 422, code: 'VALIDATION_FAILED', message: 'Input validation failed', details: [{ field: missing[1], message: 'is required' }] };
  const invalid = INVALID_VARIABLE.exec(error.message);
  if (invalid) return { status: 422, code: 'VALIDATION_FAILED', message: 'Input validation failed', details: [{ field: invalid[1], message: invalid[2] }] };
  // sofa reports a query-string or path value its scalar rejects as 400: it is bad input.
  if (ext.http?.status === 400) return { status: 422, code: 'VALIDATION_FAILED', message: error.message, details: [{ field: fieldNamed(error.message), message: error.message }] };
  if (ext.code && ext.code in STATUS_BY_CODE) return { status: STATUS_BY_CODE[ext.code as ErrorCode], code: ext.code as ErrorCode, message: error.message };
  return { status: 500, code: 'INTERNAL_ERROR', message: 'Internal server error' };
}

/**
 * Errors sofa met outside execution (execution errors are masked and logged with the request by
 * graphql/error-masking.ts), by the response that answered them: sofa's error handler has no
 * request context, so the facade logs them with the request's logger (`takeUnexpectedErrors`).
 */
const unexpectedByResponse = new WeakMap<Response, Error[]>();

export function takeUnexpectedErrors(response: Response): Error[] {
  const errors = unexpectedByResponse.get(response) ?? [];
  unexpectedByResponse.delete(response);
  return errors;
}

export function restErrorFromGraphQL(errors: ReadonlyArray<GraphQLError | Error>): Response {
  const unexpected: Error[] = [];
  // The most severe error decides the status (a 503 beats a 500 beats a 404 beats a 422).
  const classified = errors.map((error): Classified => {
    if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message, details: error.details };
    if ('extensions' in error) return classify(error as GraphQLError);
    if (isDatabaseUnavailable(error)) return { status: 503, code: DATABASE_UNAVAILABLE.code, message: DATABASE_UNAVAILABLE.message };
    unexpected.push(error);
    return { status: 500, code: 'INTERNAL_ERROR', message: 'Internal server error' };
  });
  const worst = classified.reduce((a, b) => (b.status > a.status ? b : a));
  const headers = worst.status === 503 ? { 'retry-after': String(DATABASE_UNAVAILABLE.retryAfterSeconds) } : undefined;
  const response = errorResponse(worst.status, worst.code, worst.message, worst.details, headers);
  if (unexpected.length) unexpectedByResponse.set(response, unexpected);
  return response;
}
