// API keys (apikeys:manage): list the organization's keys and the declared scopes, mint a key
// (shown once), revoke one. See service.ts for the minting path and the escalation rule.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineEnum } from '../../graphql/enums.js';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { pageInput } from '../../graphql/zod-args.js';
import { API_KEY_STATUSES, createKey, listKeys, listScopes, revokeKey, type ApiKeyScopeView, type ApiKeyView, type CreatedKey } from './service.js';

const ApiKeyStatusEnum = defineEnum('ApiKeyStatus', API_KEY_STATUSES, 'Whether an API key is accepted now.', {
  active: 'Accepted: not revoked and not past its expiry',
  revoked: 'Revoked: refused from now on',
  expired: 'Past its expiresAt: refused',
});

const SCOPE_DESCRIPTION =
  "The API-key scope the key was minted against: one of the deployment's configured apiKeyScopes (admin, storefront and any a plugin or config adds), so a String";

const ApiKeyRef = builder.objectRef<ApiKeyView>('ApiKey').implement({
  description: 'An API key of the organization, without its secret (only its hash is stored).',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    name: t.exposeString('name', { nullable: true, description: 'The label given when the key was minted' }),
    scope: t.exposeString('scope', { description: SCOPE_DESCRIPTION }),
    start: t.exposeString('start', { nullable: true, description: "The key's first characters (its scope prefix and a few more), to recognise it; never the whole key" }),
    status: t.expose('status', { type: ApiKeyStatusEnum, description: 'Whether the key is accepted now: active, revoked or expired' }),
    userId: t.expose('userId', { type: 'UUID', description: 'The user the key acts for (whoever minted it from the dashboard; the service account for CLI keys)' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'Null: the key does not expire' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'The last request made with the key (recorded at most once a minute)' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ApiKeyCreatedRef = builder.objectRef<CreatedKey>('ApiKeyCreated').implement({
  description: 'A newly minted API key with the key itself: store it now, it is never shown again.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The key, sent as the x-api-key header. Shown only in this answer.' }),
    apiKey: t.expose('apiKey', { type: ApiKeyRef, description: 'The key as apiKeys lists it' }),
  }),
});

const ApiKeyScopeRef = builder.objectRef<ApiKeyScopeView>('ApiKeyScope').implement({
  description: 'A declared API-key scope: what a key minted against it may do.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The scope name, as apiKeyCreate takes it' }),
    description: t.exposeString('description'),
    permissions: t.exposeStringList('permissions', { description: 'Permission strings (module:action) a key alone holds' }),
    grantable: t.exposeBoolean('grantable', { description: 'Whether the caller holds every permission of the scope, and so may mint or revoke keys of it' }),
  }),
});

const access = { permission: 'apikeys:manage' } as const;

defineOperation({
  name: 'apiKeys',
  kind: 'query',
  summary: "The organization's API keys, oldest first (never the keys themselves)",
  rest: { method: 'GET', path: '/api-keys' },
  access,
  input: { status: z.enum(API_KEY_STATUSES).optional().describe('Only keys in this state'), ...pageInput(50, 100) },
  output: pageOf('ApiKey', ApiKeyRef),
  paginated: true,
  resolve: (ctx, input) => listKeys(ctx, input),
});

defineOperation({
  name: 'apiKeyScopes',
  kind: 'query',
  summary: 'The declared API-key scopes, and whether the caller may mint keys of each',
  rest: { method: 'GET', path: '/api-key-scopes' },
  access,
  input: {},
  output: [ApiKeyScopeRef],
  resolve: (ctx) => listScopes(ctx),
});

defineOperation({
  name: 'apiKeyCreate',
  kind: 'mutation',
  summary: 'Mint an API key for the caller; the answer holds the key, shown only this once',
  description:
    'The key acts for the calling user with the permissions of its scope, so the caller must hold every permission of that scope (403 otherwise: ' +
    'no key wider than its minter). expiresAt: at least a day ahead and within the scope’s keyExpiration.maxExpiresIn; absent, the key does not expire.',
  rest: { method: 'POST', path: '/api-keys', status: 201 },
  access,
  input: {
    name: z.string().trim().min(1).max(100).describe('A label, e.g. the integration that will use the key'),
    scope: z.string().min(1).max(64).describe(SCOPE_DESCRIPTION),
    expiresAt: z.coerce.date().optional().describe('ISO 8601; absent: no expiry'),
  },
  output: ApiKeyCreatedRef,
  resolve: (ctx, input) => createKey(ctx, input),
  // The key itself never reaches the audit log.
  audit: { event: 'apikeys.create', entityType: 'api_key', entityId: (_input, result) => result.apiKey.id, after: (result) => result.apiKey },
});

defineOperation({
  name: 'apiKeyRevoke',
  kind: 'mutation',
  summary: 'Revoke an API key: refused from the next request on; revoking a revoked key changes nothing',
  description: 'Needs every permission of the key’s scope, like minting it. The key a request is made with cannot revoke itself (422).',
  rest: { method: 'DELETE', path: '/api-keys/:id' },
  access,
  input: { id: z.guid() },
  output: ApiKeyRef,
  resolve: (ctx, input) => revokeKey(ctx, input.id),
  audit: { event: 'apikeys.revoke', entityType: 'api_key' },
});
