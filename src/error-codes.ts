// The error catalogue: every `error.code` (REST) and `errors[].extensions.code` (GraphQL) this
// service can answer, its HTTP status, what it means, and the one shape its `details` has.
// /api/doc's ErrorResponse, the GraphQL `ErrorCode` enum and the README's list are built from
// (or checked against) this table, and test/platform/error-codes.test.ts fails when a thrower
// anywhere in src/ or plugins/ uses a code that is not here.
//
// Details shapes, one per code:
//  - VALIDATION_FAILED: a list of failing fields `[{ field, message, reason? }]`;
//  - every other code: an object (`ErrorContext`) whose well-known keys are `reason` (a
//    machine-readable sub-code, e.g. better-auth's USER_ALREADY_EXISTS) and `fields` (the input
//    fields involved), plus the values the message names (`available`, `requested`...), plus
//    the keys the code's own schema requires (INVALID_TRANSITION: `from`; CHECKOUT_FAILED:
//    `reason`; QUERY_TOO_COSTLY: `cost`, `maxCost`...).

/** One failing input field: `field` is a dotted path into the input. */
export interface FieldIssue {
  field: string;
  message: string;
  /** A machine-readable sub-code where the message has one (MIN_SUBTOTAL_NOT_MET...). */
  reason?: string;
}

/** The object every non-validation code carries as details (when it carries any). */
export interface ErrorContext {
  reason?: string;
  fields?: string[];
  [key: string]: unknown;
}

type Json = Record<string, unknown>;

/** Where a code can be answered: over both, or only on the GraphQL endpoint (its transport). */
type Surface = 'both' | 'graphql';

export interface ErrorCodeEntry {
  status: number;
  meaning: string;
  surface: Surface;
  /** OpenAPI 3.0 schema of `details`; absent when the code never carries details. */
  details?: Json;
}

const FIELD_ISSUES: Json = {
  type: 'array',
  description: 'The failing input fields',
  items: {
    type: 'object',
    required: ['field', 'message'],
    properties: {
      field: { type: 'string', description: 'Dotted path into the input (`lines.0.quantity`)' },
      message: { type: 'string' },
      reason: { type: 'string', description: 'Machine-readable sub-code, when there is one' },
    },
  },
};

function context(description: string, extra: { required?: string[]; properties?: Json } = {}): Json {
  return {
    type: 'object',
    description,
    ...(extra.required ? { required: extra.required } : {}),
    properties: {
      reason: { type: 'string', description: 'Machine-readable sub-code' },
      fields: { type: 'array', items: { type: 'string' }, description: 'The input fields involved' },
      ...extra.properties,
    },
    // Other keys (the values the message names) are allowed: JSON Schema's default. Not written
    // out as `additionalProperties: true`, which openapi-typescript turns into an index
    // signature that makes every generated client type weaker.
  };
}

const CONTEXT = context('Context of the refusal: `reason`, `fields`, and the values the message names');

export const ERROR_CODES = {
  BAD_REQUEST: {
    status: 400,
    surface: 'both',
    meaning: 'The request cannot be read: malformed JSON or multipart, a body nested too deep, a missing signature header',
    details: CONTEXT,
  },
  QUERY_TOO_COSTLY: {
    status: 400,
    surface: 'both',
    meaning: 'The operation (or a REST list with its `include`s and `limit`) costs more than the maximum, or loops through a list: refused before it runs',
    details: context('The computed cost and the maximum', {
      required: ['cost', 'maxCost'],
      properties: { cost: { type: 'integer' }, maxCost: { type: 'integer' }, loop: { type: 'string', description: 'The list entered too often along one path' } },
    }),
  },
  GRAPHQL_PARSE_FAILED: { status: 400, surface: 'graphql', meaning: 'The GraphQL document is not valid syntax' },
  GRAPHQL_VALIDATION_FAILED: { status: 400, surface: 'graphql', meaning: 'The GraphQL document does not validate against the schema, or exceeds a depth, alias or token limit' },
  PERSISTED_QUERY_NOT_FOUND: { status: 200, surface: 'graphql', meaning: 'Automatic persisted queries: the hash is not known for this caller; send the query with it once' },
  PERSISTED_QUERY_HASH_MISMATCH: { status: 200, surface: 'graphql', meaning: 'Automatic persisted queries: the sha256Hash is not the hash of the query sent' },
  PERSISTED_QUERY_INVALID: { status: 200, surface: 'graphql', meaning: 'Automatic persisted queries: only version 1 with a 64-hex-digit sha256Hash is supported' },
  UNAUTHORIZED: { status: 401, surface: 'both', meaning: 'No valid credentials (or a wrong email/password, a wrong PIN)', details: CONTEXT },
  FORBIDDEN: {
    status: 403,
    surface: 'both',
    meaning: "Missing permission, another organization's credentials, a cookie request from an untrusted origin, or a rule that refuses this caller (refund cap)",
    details: CONTEXT,
  },
  TWO_FACTOR_REQUIRED: { status: 403, surface: 'both', meaning: 'This role must sign in with two factors; only enrolment is open to this session' },
  NOT_FOUND: { status: 404, surface: 'both', meaning: 'The resource or route does not exist (in this organization)', details: CONTEXT },
  REQUEST_TIMEOUT: { status: 408, surface: 'both', meaning: 'The request body did not arrive within the body-read timeout; the connection is closed' },
  CONFLICT: { status: 409, surface: 'both', meaning: 'Conflicting state: a duplicate, a row in use, not enough stock or balance for the move', details: CONTEXT },
  PAYLOAD_TOO_LARGE: { status: 413, surface: 'both', meaning: 'The body (or an uploaded file) is above the limit' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, surface: 'both', meaning: 'The body is not in a content type this route reads', details: CONTEXT },
  VALIDATION_FAILED: { status: 422, surface: 'both', meaning: 'Input validation failed; `details` lists the failing fields', details: FIELD_ISSUES },
  CHECKOUT_FAILED: {
    status: 422,
    surface: 'both',
    meaning: 'The checkout pipeline refused the order (empty cart, unpriced or unsellable items, promotion, stock, hook, payment); nothing was kept',
    details: context('Why, and at which step', {
      required: ['reason'],
      properties: {
        reason: { type: 'string', description: 'Why, in words' },
        step: { type: 'string', description: 'promotions, inventory, payment, checkout.beforeCreate, checkout.beforeCommit' },
        code: { type: 'string', description: 'The code of the refusal the step met (CONFLICT, VALIDATION_FAILED...)' },
        details: { description: "That refusal's own details" },
        paymentCode: { type: 'string' },
        declineCode: { type: 'string' },
      },
    }),
  },
  INVALID_TRANSITION: {
    status: 422,
    surface: 'both',
    meaning: 'The move is not in the state table of the resource (order, job, vendor, layaway, store...)',
    details: context('The refused move', {
      required: ['from'],
      properties: { from: { type: 'string' }, to: { type: 'string' }, allowed: { type: 'array', items: { type: 'string' }, description: 'Where `from` may go' } },
    }),
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    surface: 'both',
    meaning: 'This idempotency key was already used with a different request body; use a new key for a new request',
    details: context("The key, and the order it made (the caller's own)", {
      required: ['idempotencyKey', 'orderId'],
      properties: { idempotencyKey: { type: 'string' }, orderId: { type: 'string', format: 'uuid' } },
    }),
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    surface: 'both',
    meaning: 'Rate limit exceeded; retry after the `Retry-After` header',
    details: context('When to retry', { required: ['retryAfter'], properties: { retryAfter: { type: 'integer', description: 'Seconds' } } }),
  },
  REQUEST_HEADER_FIELDS_TOO_LARGE: {
    status: 431,
    surface: 'both',
    meaning: 'The request line and headers together are above the server limit (16 KB: a long query string counts); the connection is closed',
  },
  CLIENT_CLOSED_REQUEST: { status: 499, surface: 'both', meaning: 'The client hung up before the answer (logged; nobody reads this answer)' },
  INTERNAL_ERROR: { status: 500, surface: 'both', meaning: 'Unexpected error: the message is masked and the error logged with the request id' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    surface: 'both',
    meaning: 'A dependency cannot be reached (database, search engine, media store), the organization cannot be resolved, or the process is draining; retry after `Retry-After`',
    details: CONTEXT,
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];

export const STATUS_BY_CODE: Record<ErrorCode, number> = Object.fromEntries(ERROR_CODE_NAMES.map((code) => [code, ERROR_CODES[code].status])) as Record<ErrorCode, number>;

/** The TypeScript shape of `details` per code (mirrors the schemas above; tsc checks throwers). */
export interface DetailsByCode {
  VALIDATION_FAILED: FieldIssue[];
  QUERY_TOO_COSTLY: ErrorContext & { cost: number; maxCost: number; loop?: string };
  CHECKOUT_FAILED: ErrorContext & { reason: string; step?: string; code?: string };
  INVALID_TRANSITION: ErrorContext & { from: string; to?: string; allowed?: readonly string[] };
  IDEMPOTENCY_KEY_REUSED: ErrorContext & { idempotencyKey: string; orderId: string };
  TOO_MANY_REQUESTS: ErrorContext & { retryAfter: number };
}

type CodesWithDetails = { [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { details: Json } ? C : never }[ErrorCode];

/** What a thrower may pass as details for `C`: never for codes without details. */
export type DetailsOf<C extends ErrorCode> = C extends keyof DetailsByCode ? DetailsByCode[C] : C extends CodesWithDetails ? ErrorContext : never;

/** The codes an answer of this HTTP status can carry over REST. */
export function codesForStatus(status: number): ErrorCode[] {
  return ERROR_CODE_NAMES.filter((code) => ERROR_CODES[code].status === status && ERROR_CODES[code].surface === 'both');
}
