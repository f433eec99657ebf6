// One small error hierarchy. Services throw AppError; the REST facade (http/rest-errors.ts) and
// GraphQL (graphql/errors.ts) each map it in exactly one place. AppError is a GraphQLError so
// Yoga passes it to clients unmasked; its REST status lives under our own extension key
// (`restStatus`), not `extensions.http`, because GraphQL clients expect 200 with `errors`.
import { GraphQLError } from 'graphql';

import { STATUS_BY_CODE, type DetailsOf, type ErrorCode, type ErrorContext, type FieldIssue } from './error-codes.js';

// The catalogue (codes, statuses, details shapes) lives in error-codes.ts.
export { ERROR_CODES, STATUS_BY_CODE, type DetailsOf, type ErrorCode, type ErrorContext, type FieldIssue } from './error-codes.js';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export class AppError<C extends ErrorCode = ErrorCode> extends GraphQLError {
  readonly code: C;
  readonly status: number;
  readonly details: DetailsOf<C> | undefined;

  // `details` is typed by code (error-codes.ts DetailsByCode), so a thrower cannot invent a shape.
  constructor(code: C, message: string, details?: DetailsOf<C>, status = STATUS_BY_CODE[code]) {
    super(message, { extensions: { code, restStatus: status, ...(details === undefined ? {} : { details }) } });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = details;
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.details);
  }
}

export function errorBody(code: ErrorCode, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, details?: ErrorContext) => new AppError('CONFLICT', message, details);
export const forbidden = (message = 'Insufficient permissions') => new AppError('FORBIDDEN', message);
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message);
export const validationFailed = (issues: FieldIssue[], message = 'Input validation failed') => new AppError('VALIDATION_FAILED', message, issues);
