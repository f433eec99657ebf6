// What a client sees of an error raised while executing an operation (GraphQL and the REST
// facade alike), and the log line it leaves.
//
// Errors we raise on purpose (AppError, scalar and input refusals) pass through with their code;
// a database outage becomes 503 SERVICE_UNAVAILABLE; anything else is masked as INTERNAL_ERROR
// with the request id, and logged with the request's logger.
//
// The masking runs in an envelop plugin (`useRequestErrorMasking`) because there the request's
// context — its logger and id — is at hand. It used to run in Yoga's `maskError` hook, which
// has no context, and reached the request through an AsyncLocalStorage: on Node 20 that
// storage's promise hooks cost 11–15% of the CPU of every request (bench, same run). Yoga's
// hook still runs after ours, for errors outside execution (it finds ours already safe).
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../logger.js';
import { isClientAbort } from '../logger.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { DATABASE_UNAVAILABLE } from '../http/rest-errors.js';
import { STATUS_BY_CODE } from '../error-codes.js';
import { withExtensions } from './error-copy.js';

/** The message of a masked error (also given to Yoga, so both paths say the same). */
export const UNEXPECTED_ERROR_MESSAGE = 'Unexpected error.';

/** graphql-js's messages for an input value its type refuses (scalars, enums, input objects). */
const INPUT_COERCION =
  /cannot represent|Expected value of type|does not exist in "[^"]+" enum|Expected type|Expected non-nullable type|is not defined by type|of required type .* was not provided|Expected Iterable/;

/** Errors we raised on purpose (AppError, scalar rejections) carry a code and a REST status. */
function isClientSafe(error: unknown): boolean {
  const ext = (error as { extensions?: { code?: unknown; restStatus?: unknown } } | null)?.extensions;
  return typeof ext?.code === 'string' && typeof ext.restStatus === 'number';
}

/**
 * Errors of the GraphQL transport itself (graphql-js syntax errors carry no code; Yoga names
 * validation GRAPHQL_VALIDATION_FAILED and an unknown operationName OPERATION_RESOLUTION_FAILURE)
 * get a code from the catalogue (error-codes.ts), so clients see one list. A copy, keeping
 * locations, path and the HTTP status Yoga put in the extensions (graphql-js freezes some
 * errors' extensions, so they cannot be amended in place).
 */
function withCatalogueCode(error: GraphQLError): GraphQLError {
  const code = error.extensions?.code;
  if (typeof code === 'string' && code in STATUS_BY_CODE) return error;
  // A variable graphql-js refused is bad input (VALIDATION_FAILED); REST's classifier still reads
  // its message for the field (rest-errors.ts), as no restStatus is set here.
  const next = error.message.startsWith('Syntax Error')
    ? 'GRAPHQL_PARSE_FAILED'
    : code === undefined && INPUT_COERCION.test(error.message)
      ? 'VALIDATION_FAILED'
      : code === undefined || code === 'GRAPHQL_VALIDATION_FAILED'
        ? 'GRAPHQL_VALIDATION_FAILED'
        : 'BAD_REQUEST';
  // Only parse/validation errors come here (no original error): the copy keeps what they have.
  return withExtensions(error, { ...error.extensions, code: next });
}

export interface ErrorScope {
  requestId?: string;
  logger?: Logger;
}

/**
 * The error a client may see in place of `error`. `scope` (the request's id and logger) is
 * absent only for errors raised outside execution, which are then not tied to a request id.
 */
export function maskError(error: unknown, message: string, scope: ErrorScope | null): Error {
  // Duck-typed rather than instanceof: graphql can be loaded twice (ESM and CJS builds),
  // and an AppError from one copy is not an instance of the other's GraphQLError.
  if (isClientSafe(error)) return error as GraphQLError;
  const original = (error as { originalError?: unknown }).originalError;
  if (isClientSafe(original)) return error as GraphQLError; // keeps path and locations
  if ((error as Error)?.name === 'GraphQLError' && !original) return withCatalogueCode(error as GraphQLError); // parse/validation errors
  // graphql-js refusing an input value (sofa coerces REST bodies with it): bad input, 422.
  const refused = (original ?? error) as { name?: string; message?: string };
  if (refused?.name === 'GraphQLError' && INPUT_COERCION.test(refused.message ?? '')) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    return new GraphQLError(refused.message!, { extensions: { code: 'VALIDATION_FAILED', restStatus: 422 } });
  }
  if (isDatabaseUnavailable(original ?? error)) {
    scope?.logger?.warn({ err: original ?? error }, 'database unavailable while executing an operation');
    return new GraphQLError(DATABASE_UNAVAILABLE.message, {
      extensions: { code: DATABASE_UNAVAILABLE.code, restStatus: 503, requestId: scope?.requestId },
    });
  }
  // A client that hung up is not a server fault (load generators stopping, tabs closed).
  if (isClientAbort(original ?? error)) scope?.logger?.debug('client closed the request during execution');
  else scope?.logger?.error({ err: original ?? error }, 'unexpected error while executing an operation');
  return new GraphQLError(message, {
    extensions: { code: 'INTERNAL_ERROR', restStatus: 500, requestId: scope?.requestId },
  });
}

/**
 * An execution result with its errors masked with the request's context (see the file comment);
 * the same result when nothing changed. Used by the plugin below (/graphql) and by the REST
 * facade's executor (http/rest-facade.ts).
 */
export function maskedResult<R extends ExecutionResult>(result: R, scope: ErrorScope & { rest?: { retryAfterSeconds?: number } }): R {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error) => maskError(error, UNEXPECTED_ERROR_MESSAGE, scope));
  if (scope.rest && errors.some((error) => (error as GraphQLError).extensions?.code === DATABASE_UNAVAILABLE.code)) {
    scope.rest.retryAfterSeconds = DATABASE_UNAVAILABLE.retryAfterSeconds;
  }
  // biome-ignore lint/style/noNonNullAssertion: errors is non-empty (checked above)
  return errors.some((masked, i) => masked !== result.errors![i]) ? { ...result, errors: errors as GraphQLError[] } : result;
}

/** Masks an execution result's errors with the request's context (see the file comment). */
export function useRequestErrorMasking(): Plugin {
  return {
    onExecute({ args }) {
      const scope = args.contextValue as ErrorScope & { rest?: { retryAfterSeconds?: number } };
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.length) return;
          const masked = maskedResult(result, scope);
          if (masked !== result) setResult(masked);
        },
      };
    },
  };
}
