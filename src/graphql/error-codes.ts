// The error catalogue (error-codes.ts) in the schema: `ErrorCode` names every value of
// `errors[].extensions.code` (and of REST's `error.code`), with its meaning, and the public query
// `errorCodes` lists status, meaning and details shape, so a GraphQL client learns the codes from
// schema.graphql or introspection as a REST client does from /api/doc.
import { ERROR_CODE_NAMES, ERROR_CODES, type ErrorCode } from '../error-codes.js';
import { builder } from './builder.js';
import { defineEnum } from './enums.js';
import { defineOperation } from './operation.js';

const ErrorCodeEnum = defineEnum(
  'ErrorCode',
  ERROR_CODE_NAMES as unknown as readonly ErrorCode[],
  'Every value of `errors[].extensions.code` (GraphQL) and `error.code` (REST). GraphQL answers 200 with the error; `restStatus` in the extensions is the HTTP status REST answers with.',
  Object.fromEntries(ERROR_CODE_NAMES.map((code) => [code, `${ERROR_CODES[code].status}: ${ERROR_CODES[code].meaning}`])) as Partial<Record<ErrorCode, string>>,
);

interface ErrorCodeInfo {
  code: ErrorCode;
  status: number;
  meaning: string;
  graphqlOnly: boolean;
  detailsSchema: Record<string, unknown> | null;
}

const ErrorCodeInfoRef = builder.objectRef<ErrorCodeInfo>('ErrorCodeInfo').implement({
  description: 'One entry of the error catalogue',
  fields: (t) => ({
    code: t.expose('code', { type: ErrorCodeEnum }),
    status: t.exposeInt('status', { description: 'HTTP status over REST (and `extensions.restStatus` over GraphQL)' }),
    meaning: t.exposeString('meaning', { description: 'What the code means, for people (stable per code)' }),
    graphqlOnly: t.exposeBoolean('graphqlOnly', { description: 'Raised by the GraphQL transport only (parse, validation, persisted queries)' }),
    detailsSchema: t.field({
      type: 'JSONObject',
      nullable: true,
      description: 'JSON Schema (OpenAPI 3.0 dialect) of `details` / `extensions.details`; null when the code carries none',
      resolve: (info) => info.detailsSchema,
    }),
  }),
});

defineOperation({
  name: 'errorCodes',
  kind: 'query',
  summary: 'The error catalogue: every code, its HTTP status, meaning and details shape',
  access: 'public',
  input: {},
  output: [ErrorCodeInfoRef],
  resolve: () =>
    ERROR_CODE_NAMES.map((code): ErrorCodeInfo => {
      const entry: { status: number; meaning: string; surface: string; details?: Record<string, unknown> } = ERROR_CODES[code];
      return { code, status: entry.status, meaning: entry.meaning, graphqlOnly: entry.surface === 'graphql', detailsSchema: entry.details ?? null };
    }),
});
