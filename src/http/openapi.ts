// GET /api/doc: the OpenAPI 3.0 document. Response schemas are derived from the GraphQL types as
// the REST facade selects them (openapi-types.ts: nullability, required fields, enums as named
// components); everything else comes from the operation registry, because sofa's own output
// lists body fields as query parameters too, repeats path params inside bodies, has no error
// responses and no constraints. Request schemas are the operations' zod inputs (with their limits).
// test/support/contract-rest.ts validates every REST answer of the test suite against this
// document, and test/platform/openapi-lint.test.ts keeps it clean under Redocly's rules.
import { isEnumType, type GraphQLSchema } from 'graphql';
import { z } from 'zod';
import { accessNote, operations, restPathArg, type Access, type RegisteredOperation } from '../graphql/operation.js';
import { rawRouteDocs, registeredRawRoutes } from './raw-routes.js';
import { buildResponseSchemas } from './openapi-types.js';
import { reachableComponents, refEnums, tagObjects, typeAnalyticsFilter, typeSettings } from './openapi-refine.js';
import { codesForStatus, ERROR_CODE_NAMES, ERROR_CODES, type ErrorCode, type ErrorCodeEntry } from '../error-codes.js';

type Json = Record<string, unknown>;
type AnyZod = z.core.$ZodType;

// What each error status means on a route; the codes it can carry come from the catalogue.
const ERROR_STATUSES: Record<number, string> = {
  400: 'The request cannot be read, or the operation costs too much',
  401: 'No valid credentials',
  403: 'Missing permission, or a cookie request from an untrusted origin',
  404: 'Resource or route does not exist',
  408: 'The body did not arrive in time',
  409: 'Conflicting state, for example a duplicate',
  413: 'Body above the limit',
  422: 'Input refused, with the failing fields in details',
  429: 'Rate limit exceeded; see Retry-After',
  431: 'The request line and headers are above the server limit; the connection is closed',
  500: 'Unexpected error; the message is masked and the full error logged with the request id',
  503: 'Temporarily unavailable (retry after Retry-After): the database cannot be reached, or the organization could not be resolved under strict resolution',
};

const RATE_HEADERS = {
  'X-Request-Id': { description: 'Unique id of this request (an incoming sane one is kept)', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests allowed in the window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets', schema: { type: 'integer' } },
};

function jsonSchema(schema: AnyZod): Json {
  const out = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const def = ctx.zodSchema._zod.def as { type: string };
      if (def.type === 'date') Object.assign(ctx.jsonSchema, { type: 'string', format: 'date-time' });
    },
  }) as Json;
  delete out.$schema;
  return out;
}

function pathParams(path: string): string[] {
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

function isOptional(schema: AnyZod): boolean {
  return (schema as unknown as { safeParse: (v: unknown) => { success: boolean } }).safeParse(undefined).success;
}

function security(access: Access): Json[] | undefined {
  if (access === 'public' || access === 'signedUrl') return [];
  return [{ apiKey: [] }, { bearerAuth: [] }, { sessionCookie: [] }];
}

/** One documented error answer: what the status means here and the codes it can carry. */
function errorResponse(status: number, description = ERROR_STATUSES[status] ?? 'Error'): Json {
  const codes = codesForStatus(status).filter((code) => code !== 'CLIENT_CLOSED_REQUEST');
  return {
    description: `${description}. Codes: ${codes.map((code) => `\`${code}\``).join(', ')}`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
  };
}

/**
 * The error statuses an operation can answer: every route can be refused by the rate limiter
 * (429) or for a request line and headers above the server limit (431, http/listen.ts), fail unexpectedly (500) or lose its database (503), and name a missing resource or
 * route (404) or bad input (422); a route needing credentials adds 401/403; a body adds 400
 * (malformed JSON, nested too deep), 408 (body-read timeout) and 413; a list, or a route taking
 * `include`, adds 400 QUERY_TOO_COSTLY; a mutation adds 409.
 */
function errorResponses(op: Pick<RegisteredOperation, 'access' | 'kind' | 'paginated'> & { input?: RegisteredOperation['input'] }, hasBody: boolean): Json {
  // Public routes too: a presented credential that is invalid is 401, and a public route may
  // still refuse (a cart of another customer, a cookie write from an untrusted origin) with 403.
  // Any request can carry a request line and headers above the server's limit (431).
  const statuses = new Set([401, 403, 404, 422, 429, 431, 500, 503]);
  if (hasBody) [400, 408, 413].forEach((s) => statuses.add(s));
  if (op.paginated || (op.input && 'include' in op.input.shape)) statuses.add(400);
  if (op.kind === 'mutation') statuses.add(409);
  return Object.fromEntries([...statuses].sort((a, b) => a - b).map((status) => [String(status), errorResponse(status)]));
}

/** Raw routes (uploads, documents, webhooks) declare their own answers; add the common refusals they lack. */
function withRawErrorResponses(paths: Record<string, Json>): void {
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item) as Array<[string, Json]>) {
      const responses = (operation.responses ?? {}) as Json;
      const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
      const common = errorResponses({ access: isPublic ? 'public' : 'authenticated', kind: method === 'get' ? 'query' : 'mutation', paginated: false }, method === 'post');
      delete common['409'];
      for (const [status, response] of Object.entries(common)) if (!(status in responses)) responses[status] = response;
      operation.responses = responses;
    }
  }
}

/** `{ error: { code, message, details? } }`: one variant per details shape, told apart by `code`. */
function errorResponseSchema(): Json {
  const groups = new Map<string, ErrorCode[]>();
  for (const code of ERROR_CODE_NAMES) {
    const entry: ErrorCodeEntry = ERROR_CODES[code];
    if (entry.surface !== 'both' || code === 'CLIENT_CLOSED_REQUEST') continue;
    const key = JSON.stringify(entry.details ?? null);
    groups.set(key, [...(groups.get(key) ?? []), code]);
  }
  const variants = [...groups.entries()].map(([key, codes]) => {
    const details = JSON.parse(key) as Json | null;
    return {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: codes, description: codes.map((code) => `${code} (${ERROR_CODES[code].status}): ${ERROR_CODES[code].meaning}`).join('\n') },
        message: { type: 'string', description: 'For people; may change' },
        ...(details ? { details } : {}),
      },
      ...(details ? {} : { additionalProperties: false }),
    };
  });
  return {
    type: 'object',
    required: ['error'],
    description: 'The error envelope. `code` is stable (the catalogue); `details` has one shape per code.',
    properties: { error: { oneOf: variants } },
  };
}

function operationObject(op: RegisteredOperation, response: Json | undefined): Json {
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const rest = op.rest!;
  // Path parameters by the input key they fill (a route may name one differently: restPathArg).
  const inPath = new Map(pathParams(rest.path).map((name) => [restPathArg(rest, name), name]));
  const shape = op.input.shape as Record<string, AnyZod>;
  const hasBody = rest.method === 'POST' || rest.method === 'PUT' || rest.method === 'PATCH';
  const parameters: Json[] = [];
  const bodyFields: Record<string, AnyZod> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const pathName = inPath.get(name);
    if (pathName) {
      const { description, ...rest } = jsonSchema(schema);
      parameters.push({ name: pathName, in: 'path', required: true, schema: rest, ...(description ? { description } : {}) });
    } else if (hasBody) bodyFields[name] = schema;
    else {
      const { description, ...rest } = jsonSchema(schema);
      parameters.push({ name, in: 'query', required: !isOptional(schema), schema: rest, ...(description ? { description } : {}) });
    }
  }
  let requestBody: Json | undefined;
  // A POST whose input is all path params (publish, archive...) takes no body: say so rather
  // than documenting an empty object.
  if (hasBody && (rest.bodyAs || Object.keys(bodyFields).length)) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const bodySchema = rest.bodyAs ? shape[rest.bodyAs]! : z.object(bodyFields);
    requestBody = { required: rest.bodyAs ? true : Object.values(bodyFields).some((s) => !isOptional(s)), content: { 'application/json': { schema: jsonSchema(bodySchema) } } };
  }
  const status = String(rest.status ?? 200);
  const payload = response ?? {};
  // Paginated fields already have the `{ data, meta }` shape; the facade wraps the others.
  const schema = op.paginated ? payload : { type: 'object', required: ['data'], properties: { data: payload } };
  return {
    operationId: op.name,
    summary: op.summary,
    description: [op.description, accessNote(op.access), `GraphQL twin: \`${op.kind} { ${op.name} }\`.`].filter(Boolean).join('\n\n'),
    tags: [op.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    security: security(op.access),
    responses: {
      [status]: { description: op.summary, headers: RATE_HEADERS, content: { 'application/json': { schema } } },
      ...Object.fromEntries(
        (rest.otherStatuses ?? []).map((other) => [
          String(other),
          { description: `${op.summary} (see the description for when)`, headers: RATE_HEADERS, content: { 'application/json': { schema } } },
        ]),
      ),
      ...errorResponses(op, hasBody),
    },
  };
}

/** Routes served outside sofa (identity, meta): documented here by hand. */
function rawRoutes(): Json {
  const json = (schema: Json) => ({ content: { 'application/json': { schema } } });
  const error = (description: string) => ({ description, ...json({ $ref: '#/components/schemas/ErrorResponse' }) });
  const credentials = {
    type: 'object',
    required: ['email', 'password'],
    properties: { email: { type: 'string', format: 'email' }, password: { type: 'string', minLength: 8, maxLength: 128 } },
  };
  // better-auth's own answers (sign-up, sign-in, get-session), as it sends them.
  const authResult = { $ref: '#/components/schemas/AuthResult' };
  // The meta routes spend the anonymous budget of the caller's address (http/app.ts).
  const limited = { 429: error('Rate limit exceeded for this address (TOO_MANY_REQUESTS); see Retry-After') };
  return {
    '/api/health': {
      get: {
        operationId: 'health',
        summary: 'Liveness: the process serves requests (does not touch the database)',
        tags: ['meta'],
        security: [],
        responses: {
          200: {
            description: 'Alive',
            ...json({ type: 'object', required: ['status', 'version'], properties: { status: { type: 'string', enum: ['ok'] }, version: { type: 'string' } } }),
          },
          ...limited,
        },
      },
    },
    '/api/health/ready': {
      get: {
        operationId: 'healthReady',
        summary: 'Readiness: the database answers, every migration of this version is applied, and the process is not shutting down',
        tags: ['meta'],
        security: [],
        responses: {
          200: {
            description: 'Ready',
            ...json({
              type: 'object',
              required: ['status', 'version', 'database'],
              properties: {
                status: { type: 'string', enum: ['ok'] },
                version: { type: 'string' },
                database: { type: 'string', enum: ['ok'] },
                migrations: { type: 'object', properties: { pending: { type: 'array', items: { type: 'string' } } } },
              },
            }),
          },
          ...limited,
          503: {
            description:
              'Not ready (Retry-After): database unreachable, migrations pending, or shutting down (`draining`). The error envelope (`SERVICE_UNAVAILABLE`) with the checks beside it',
            ...json({
              allOf: [
                { $ref: '#/components/schemas/ErrorResponse' },
                {
                  type: 'object',
                  required: ['status', 'version'],
                  properties: {
                    status: { type: 'string', enum: ['error'] },
                    version: { type: 'string' },
                    database: { type: 'string', enum: ['ok', 'unreachable'] },
                    migrations: { type: 'object', properties: { pending: { type: 'array', items: { type: 'string' } } } },
                    draining: { type: 'boolean', enum: [true] },
                  },
                },
              ],
            }),
          },
        },
      },
    },
    '/api/doc': {
      get: {
        operationId: 'openApiDocument',
        summary: 'This OpenAPI 3.0 document',
        tags: ['meta'],
        security: [],
        responses: {
          200: {
            description: 'OpenAPI document',
            ...json({
              type: 'object',
              required: ['openapi', 'info', 'paths'],
              properties: { openapi: { type: 'string' }, info: { type: 'object', additionalProperties: true }, paths: { type: 'object', additionalProperties: true } },
              additionalProperties: true,
            }),
          },
          ...limited,
        },
      },
    },
    '/api/reference': {
      get: {
        operationId: 'apiReference',
        summary: 'Interactive API explorer (HTML)',
        tags: ['meta'],
        security: [],
        responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } }, ...limited },
      },
    },
    '/api/auth/sign-up/email': {
      post: {
        operationId: 'authSignUpEmail',
        summary: 'Create a customer account of the resolved organization',
        tags: ['auth'],
        security: [],
        requestBody: {
          required: true,
          ...json({ ...credentials, required: ['email', 'password', 'name'], properties: { ...credentials.properties, name: { type: 'string', minLength: 1 } } }),
        },
        responses: {
          200: { description: 'Signed up; `token` is the bearer token (null when email verification is required)', ...json(authResult) },
          400: error('Malformed JSON, or a form naming a field twice'),
          413: error('Body above 1 MB (PAYLOAD_TOO_LARGE)'),
          415: error('No JSON or form Content-Type (UNSUPPORTED_MEDIA_TYPE)'),
          409: error('Email already used (details.reason USER_ALREADY_EXISTS...)'),
          422: error('Invalid input'),
          429: error('Too many attempts for this email or from this address'),
          503: error('No organization serves this request under strict resolution, or the database is unreachable (SERVICE_UNAVAILABLE)'),
        },
      },
    },
    '/api/auth/sign-in/email': {
      post: {
        operationId: 'authSignInEmail',
        summary: 'Sign in; sets the session cookie and returns `token` for `Authorization: Bearer`',
        tags: ['auth'],
        security: [],
        requestBody: { required: true, ...json(credentials) },
        responses: {
          200: {
            description: 'Signed in; or, for an account with two-factor authentication, `twoFactorRedirect` (no session yet: verify the second factor first)',
            ...json({ oneOf: [authResult, { $ref: '#/components/schemas/AuthTwoFactorRedirect' }] }),
          },
          400: error('Malformed JSON, or a form naming a field twice'),
          413: error('Body above 1 MB (PAYLOAD_TOO_LARGE)'),
          415: error('No JSON or form Content-Type (UNSUPPORTED_MEDIA_TYPE)'),
          401: error('Wrong email or password'),
          403: error('Email not verified, or a cookie request from an untrusted origin'),
          422: error('Invalid input'),
          429: error('Too many attempts for this email or from this address'),
          503: error('No organization serves this request under strict resolution, or the database is unreachable (SERVICE_UNAVAILABLE)'),
        },
      },
    },
    '/api/auth/sign-out': {
      post: {
        operationId: 'authSignOut',
        summary: 'End the current session (bearer or cookie)',
        tags: ['auth'],
        // The session to end is the caller's: its bearer token or session cookie.
        security: [{ bearerAuth: [] }, { sessionCookie: [] }],
        responses: {
          200: { description: 'Signed out', ...json({ type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } }) },
          403: error('A cookie request from an untrusted origin'),
          415: error('A body without a JSON Content-Type (UNSUPPORTED_MEDIA_TYPE)'),
        },
      },
    },
    '/api/auth/get-session': {
      get: {
        operationId: 'authGetSession',
        summary: 'The current session and user, or null',
        tags: ['auth'],
        // Credentials are optional: without them (or with an expired session) the answer is null.
        security: [{ bearerAuth: [] }, { sessionCookie: [] }, {}],
        responses: {
          200: {
            description: 'Session or null',
            ...json({
              type: 'object',
              nullable: true,
              required: ['session', 'user'],
              properties: { session: { $ref: '#/components/schemas/AuthSession' }, user: { $ref: '#/components/schemas/AuthUser' } },
            }),
          },
        },
      },
    },
  };
}

/** Component schemas of the identity routes (better-auth's shapes with our additional fields). */
function authSchemas(): Record<string, Json> {
  const dateTime = { type: 'string', format: 'date-time' };
  return {
    AuthUser: {
      type: 'object',
      required: ['id', 'email', 'name', 'emailVerified', 'createdAt', 'updatedAt'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        email: { type: 'string', format: 'email' },
        name: { type: 'string' },
        emailVerified: { type: 'boolean' },
        image: { type: 'string', nullable: true },
        role: { type: 'string', description: 'owner, admin, staff or customer' },
        organizationId: { type: 'string', format: 'uuid' },
        createdAt: dateTime,
        updatedAt: dateTime,
      },
    },
    AuthSession: {
      type: 'object',
      required: ['id', 'userId', 'expiresAt'],
      properties: {
        id: { type: 'string' },
        userId: { type: 'string', format: 'uuid' },
        expiresAt: dateTime,
        createdAt: dateTime,
        updatedAt: dateTime,
        ipAddress: { type: 'string', nullable: true },
        userAgent: { type: 'string', nullable: true },
      },
    },
    AuthTwoFactorRedirect: {
      type: 'object',
      required: ['twoFactorRedirect'],
      properties: { twoFactorRedirect: { type: 'boolean', enum: [true] }, twoFactorMethods: { type: 'array', items: { type: 'string' }, description: 'For example totp' } },
    },
    AuthResult: {
      type: 'object',
      required: ['token', 'user'],
      properties: { token: { type: 'string', nullable: true, description: 'Bearer token for `Authorization: Bearer`' }, user: { $ref: '#/components/schemas/AuthUser' } },
    },
  };
}

/** A REST answer's payload: null only when the operation's result may be (not for refusals, which are 4xx). */
function restRoot(schema: Json | undefined, resultNullable: boolean): Json | undefined {
  if (!schema || resultNullable || !schema.nullable) return schema;
  const { nullable: _nullable, ...rest } = schema;
  // refWith's nullable form: { type, allOf: [$ref], nullable } → the plain reference.
  const allOf = rest.allOf as Json[] | undefined;
  if (allOf?.length === 1 && Object.keys(rest).every((key) => key === 'allOf' || key === 'type')) return allOf[0];
  return rest;
}

/**
 * The document, from the schema the REST facade runs on (restFacade().restSchema(): the full
 * schema without graph-only relations) and the operation registry.
 */
export function buildOpenApiDocument(schema: GraphQLSchema, info: { title: string; version: string; cookieName: string }): Json {
  const routed = [...operations.values()].filter((op) => op.rest);
  const derived = buildResponseSchemas(
    schema,
    routed.map((op) => ({ kind: op.kind, name: op.name })),
  );
  // Raw routes of the modules gain the common refusals they do not declare themselves.
  const moduleRawRoutes = rawRouteDocs();
  withRawErrorResponses(moduleRawRoutes);
  let paths = { ...rawRoutes(), ...moduleRawRoutes } as Record<string, Json>;
  for (const op of routed) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const key = `/api${op.rest!.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    paths[key] = { ...(paths[key] ?? {}), [op.rest!.method.toLowerCase()]: operationObject(op, restRoot(derived.roots.get(`${op.kind}.${op.name}`), op.resultNullable)) };
  }
  // A raw route served by Accept (text/csv) is another representation of the operation on its path.
  for (const raw of registeredRawRoutes()) {
    if (!raw.accept) continue;
    const op = paths[`/api${raw.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`]?.[raw.method.toLowerCase()] as Json | undefined;
    const ok = (op?.responses as Record<string, Json> | undefined)?.['200'];
    if (ok) (ok.content as Json)[raw.accept] = { schema: { type: 'string', description: `With Accept: ${raw.accept}` } };
  }
  // conditional.ts: every successful GET carries an ETag, and a matching If-None-Match gets 304.
  for (const item of Object.values(paths)) {
    const get = item.get as Json | undefined;
    const responses = get?.responses as Record<string, Json> | undefined;
    if (responses?.['200']) responses['304'] = { description: 'Not modified: If-None-Match matched the ETag of the 200 answer (no body)' };
  }
  const schemas: Record<string, Json> = { ...derived.components };
  typeSettings(paths, schemas);
  typeAnalyticsFilter(paths, schemas);
  // Inline copies of GraphQL enums in request schemas become references to the named enum.
  const allEnums = new Map(
    Object.values(schema.getTypeMap())
      .filter(isEnumType)
      .filter((t) => !t.name.startsWith('__'))
      .map((t) => [t.name, t.getValues().map((v) => v.name)]),
  );
  const referenced = new Set<string>();
  paths = refEnums(paths, allEnums, referenced) as Record<string, Json>;
  // (not the enum components themselves, which would become references to themselves)
  for (const name of Object.keys(schemas)) if (!allEnums.has(name)) schemas[name] = refEnums(schemas[name], allEnums, referenced) as Json;
  for (const name of referenced) {
    const type = schema.getType(name);
    schemas[name] ??= { type: 'string', enum: allEnums.get(name), ...(type?.description ? { description: type.description } : {}) };
  }
  Object.assign(schemas, authSchemas());
  schemas.ErrorResponse = errorResponseSchema();
  const reachable = reachableComponents(paths, schemas);
  return {
    openapi: '3.0.3',
    info: {
      title: info.title,
      version: info.version,
      description:
        'Headless commerce API. Every route here is generated from the GraphQL schema at /graphql. ' +
        'Success bodies are `{ data }` (lists add `meta.pagination`); errors are `{ error: { code, message, details? } }`. ' +
        'A path or method not listed here answers 404 with that error body (NOT_FOUND).',
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: '/' }],
    tags: tagObjects(paths),
    paths,
    components: {
      // Only what some path reaches: an unused component is noise for readers and generators.
      schemas: Object.fromEntries(
        Object.entries(schemas)
          .filter(([name]) => reachable.has(name))
          .sort(([a], [b]) => a.localeCompare(b)),
      ),
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The `token` returned by POST /api/auth/sign-in/email' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: info.cookieName },
      },
    },
  };
}
