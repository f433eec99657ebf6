// The one Pothos builder. Modules register their types and operations on it at import time;
// src/schema.ts imports every module; graphql/schema.ts calls toSchema().
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import type PrismaTypes from '../generated/pothos-prisma-types.js';
import { getDatamodel } from '../generated/pothos-prisma-types.js';
import type { RequestContext } from '../context.js';
import { hasPermission } from '../auth/permissions.js';
import { AppError } from '../errors.js';
import { DateTimeScalar, JSONObjectScalar, JSONScalar, MinorUnitsScalar, UUIDScalar } from './scalars.js';

export interface AuthScopes {
  /** Any signed-in user or API key. */
  authenticated: boolean;
  /** A permission string such as `settings:manage`; `*:*` grants every one. */
  permission: string;
  /** Every one of these permissions (POS exchanges need three). */
  allPermissions: string[];
  /** At least one of these permissions. */
  anyPermission: string[];
}

/** "missing permission settings:manage" from scope-auth's failure tree. */
function describeFailure(failure: AuthFailure): string {
  if (failure.kind === AuthScopeFailureType.AuthScope) {
    const param = failure.parameter;
    if (failure.scope === 'authenticated') return 'authentication required';
    return `missing permission ${Array.isArray(param) ? param.join(failure.scope === 'anyPermission' ? ' or ' : ' and ') : String(param)}`;
  }
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    return failure.failures.map(describeFailure).join('; ');
  }
  return 'not allowed';
}

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: AuthScopes;
  DefaultFieldNullability: false;
  Scalars: {
    UUID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date | string };
    MinorUnits: { Input: number; Output: number | bigint };
    JSON: { Input: unknown; Output: unknown };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
    /** A file part of a GraphQL multipart request (media uploads). */
    File: { Input: File; Output: never };
  };
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, PrismaPlugin, ValidationPlugin, DataloaderPlugin],
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  scopeAuth: {
    authScopes: (ctx) => {
      const granted = ctx.actor?.permissions ?? [];
      return {
        authenticated: ctx.actor !== null,
        permission: (permission: string) => hasPermission(granted, permission),
        allPermissions: (list: string[]) => list.every((permission) => hasPermission(granted, permission)),
        anyPermission: (list: string[]) => list.some((permission) => hasPermission(granted, permission)),
      };
    },
    // Anonymous callers get 401, signed-in callers without the permission 403.
    unauthorizedError: (_parent, ctx, _info, result) =>
      ctx.actor === null
        ? new AppError('UNAUTHORIZED', 'Authentication required: send a session cookie, a bearer token or an x-api-key header')
        : new AppError('FORBIDDEN', `Insufficient permissions: ${describeFailure(result.failure)}`),
  },
});

builder.addScalarType('UUID', UUIDScalar);
builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('MinorUnits', MinorUnitsScalar);
builder.addScalarType('JSON', JSONScalar);
builder.addScalarType('JSONObject', JSONObjectScalar);
// Yoga puts the files of a multipart request (graphql-multipart-request-spec) into variables as
// File objects; this scalar lets an argument receive one.
builder.scalarType('File', {
  description: 'A file sent as a part of a multipart request (graphql-multipart-request-spec). Input only.',
  serialize: () => {
    throw new Error('File is an input-only scalar');
  },
  parseValue: (value) => {
    if (value && typeof value === 'object' && typeof (value as File).stream === 'function') return value as File;
    throw new AppError('VALIDATION_FAILED', 'Expected a file part of a multipart request');
  },
});
