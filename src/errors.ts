// One small error hierarchy. Services throw AppError; the REST facade (http/rest-errors.ts) and
// GraphQL (graphql/errors.ts) each map it in exactly one place. AppError is a GraphQLError so
// Yoga passes it to clients unmasked; its REST status lives under our own extension key
// (`restStatus`), not `extensions.http`, because GraphQL clients expect 200 with `errors`.
import { GraphQLError } from 'graphql';

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'TWO_FACTOR_REQUIRED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'REQUEST_TIMEOUT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'VALIDATION_FAILED'
  | 'CHECKOUT_FAILED'
  | 'INVALID_TRANSITION'
  | 'TOO_MANY_REQUESTS'
  | 'QUERY_TOO_COSTLY'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TWO_FACTOR_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  CHECKOUT_FAILED: 422,
  INVALID_TRANSITION: 422,
  TOO_MANY_REQUESTS: 429,
  QUERY_TOO_COSTLY: 400,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** One failing input field: `field` is a dotted path into the input. */
export interface FieldIssue {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown, status = STATUS_BY_CODE[code]) {
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

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, details?: unknown) => new AppError('CONFLICT', message, details);
export const forbidden = (message = 'Insufficient permissions') => new AppError('FORBIDDEN', message);
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message);
export const validationFailed = (issues: FieldIssue[], message = 'Input validation failed') =>
  new AppError('VALIDATION_FAILED', message, issues);
