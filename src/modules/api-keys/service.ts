// API keys from the dashboard (apikeys:manage): list, mint and revoke the organization's keys.
// Minting goes through ctx.services.identity — the CLI's own path (better-auth hashes the key,
// the grant signature the actor resolver checks is written) — never better-auth's HTTP endpoint.
// A caller may mint (or revoke) only a scope whose every permission it holds itself: a key alone
// acts with its scope's permissions, so a wider scope would be a privilege escalation.
import type { RequestContext } from '../../context.js';
import { forbidden, notFound, validationFailed } from '../../errors.js';
import { hasPermission, permissionsFromMap } from '../../auth/permissions.js';
import { MIN_API_KEY_TTL_SECONDS } from '../../auth/api-key-rules.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { paginate, type ListCtx, type Page, type PageInput } from '../../graphql/pagination.js';

type Ctx = Pick<RequestContext, 'db' | 'organization' | 'config' | 'actor' | 'services'>;

export const API_KEY_STATUSES = ['active', 'revoked', 'expired'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];
const DAY_SECONDS = 86_400;

export interface ApiKeyView {
  id: string;
  name: string | null;
  scope: string;
  /** The key's first characters (its scope prefix and a few more), enough to recognise it. */
  start: string | null;
  status: ApiKeyStatus;
  userId: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export interface ApiKeyScopeView {
  name: string;
  description: string;
  permissions: string[];
  /** Whether the caller holds every permission of the scope (may mint keys of it). */
  grantable: boolean;
}

const KEY_SELECT = {
  id: true,
  name: true,
  configId: true,
  start: true,
  referenceId: true,
  enabled: true,
  expiresAt: true,
  lastRequest: true,
  createdAt: true,
} satisfies Prisma.ApikeySelect;
type KeyRow = Prisma.ApikeyGetPayload<{ select: typeof KEY_SELECT }>;

function view(row: KeyRow, now = Date.now()): ApiKeyView {
  const status: ApiKeyStatus = row.enabled === false ? 'revoked' : row.expiresAt && row.expiresAt.getTime() <= now ? 'expired' : 'active';
  return {
    id: row.id,
    name: row.name,
    scope: row.configId,
    start: row.start,
    status,
    userId: row.referenceId,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastRequest,
    createdAt: row.createdAt,
  };
}

function callerPermissions(ctx: Ctx): readonly string[] {
  return ctx.actor?.permissions ?? [];
}

/** Whether the caller holds every permission of the scope (false for an undeclared scope). */
function scopeGrantable(ctx: Ctx, scope: string): boolean {
  const declared = ctx.config.apiKeyScopes[scope];
  if (!declared) return false;
  const granted = callerPermissions(ctx);
  return permissionsFromMap(declared.permissions).every((p) => hasPermission(granted, p));
}

export function listScopes(ctx: Ctx): ApiKeyScopeView[] {
  return Object.entries(ctx.config.apiKeyScopes).map(([name, scope]) => ({
    name,
    description: scope.description,
    permissions: permissionsFromMap(scope.permissions),
    grantable: scopeGrantable(ctx, name),
  }));
}

/**
 * The organization's keys. The organization a key acts for is its signed metadata's
 * organizationId (what the actor resolver trusts); the metadata is JSON.stringify output written
 * by mintApiKey, so the member appears verbatim (an organization id is a UUID: no quoting).
 */
function inOrganization(ctx: Ctx): Prisma.ApikeyWhereInput {
  return { metadata: { contains: `"organizationId":${JSON.stringify(ctx.organization.id)}` } };
}

function withStatus(status: ApiKeyStatus | undefined, now: Date): Prisma.ApikeyWhereInput {
  const notRevoked: Prisma.ApikeyWhereInput = { OR: [{ enabled: true }, { enabled: null }] };
  if (status === 'revoked') return { enabled: false };
  if (status === 'expired') return { AND: [notRevoked, { expiresAt: { lte: now } }] };
  if (status === 'active') return { AND: [notRevoked, { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }] };
  return {};
}

export async function listKeys(ctx: Ctx & ListCtx, input: PageInput & { status?: ApiKeyStatus }): Promise<Page<ApiKeyView>> {
  const where: Prisma.ApikeyWhereInput = { AND: [inOrganization(ctx), withStatus(input.status, new Date())] };
  return paginate(ctx, input, {
    list: 'apiKeys',
    model: 'Apikey',
    where,
    // Oldest first: the keys an integration has long relied on lead the list.
    orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }],
    findMany: (args) => ctx.db.apikey.findMany({ ...args, select: KEY_SELECT }),
    count: (w) => ctx.db.apikey.count({ where: w }),
    view: (rows) => rows.map((r) => view(r)),
  });
}

async function findKey(ctx: Ctx, id: string): Promise<KeyRow> {
  const row = await ctx.db.apikey.findFirst({ where: { AND: [{ id }, inOrganization(ctx)] }, select: KEY_SELECT });
  if (!row) throw notFound('API key');
  return row;
}

export interface CreateKeyInput {
  name: string;
  scope: string;
  expiresAt?: Date | null;
}

/** The lifetime in seconds the scope accepts for `expiresAt`, or a 422. */
function ttlFor(ctx: Ctx, scope: string, expiresAt: Date | null | undefined): number | undefined {
  if (!expiresAt) return undefined;
  const bounds = ctx.config.apiKeyScopes[scope]?.keyExpiration;
  const ttl = Math.ceil((expiresAt.getTime() - Date.now()) / 1000);
  const min = Math.max(MIN_API_KEY_TTL_SECONDS, Math.ceil((bounds?.minExpiresIn ?? 0) * DAY_SECONDS));
  const max = bounds?.maxExpiresIn ? Math.floor(bounds.maxExpiresIn * DAY_SECONDS) : Number.POSITIVE_INFINITY;
  if (ttl < min) throw validationFailed([{ field: 'expiresAt', message: `must be at least ${Math.round(min / 3600)} hours from now` }]);
  if (ttl > max) throw validationFailed([{ field: 'expiresAt', message: `must be at most ${bounds?.maxExpiresIn} days from now for scope ${scope}` }]);
  return ttl;
}

export interface CreatedKey {
  /** The key itself: in this answer only. */
  key: string;
  apiKey: ApiKeyView;
}

export async function createKey(ctx: Ctx, input: CreateKeyInput): Promise<CreatedKey> {
  const declared = Object.keys(ctx.config.apiKeyScopes);
  if (!declared.includes(input.scope)) throw validationFailed([{ field: 'scope', message: `unknown scope; declared scopes: ${declared.join(', ')}` }]);
  if (!scopeGrantable(ctx, input.scope)) throw forbidden(`A key of scope ${input.scope} would grant permissions you do not hold`);
  const ttlSeconds = ttlFor(ctx, input.scope, input.expiresAt);
  const actor = ctx.actor;
  if (!actor) throw forbidden();
  // The key acts for the caller's own user (an API-key caller: the user its key was minted for),
  // so the audit trail and the key's role name who minted it.
  const minted = await ctx.services.identity.mintApiKey(ctx.db, { scope: input.scope, name: input.name, ttlSeconds, userId: actor.userId, organizationId: ctx.organization.id });
  const row = await findKey(ctx, minted.id);
  return { key: minted.key, apiKey: view(row) };
}

export async function revokeKey(ctx: Ctx, id: string): Promise<ApiKeyView> {
  const row = await findKey(ctx, id);
  if (!scopeGrantable(ctx, row.configId)) throw forbidden(`Revoking a key of scope ${row.configId} needs every permission it grants`);
  // Revoking the very key of this request would lock the caller out mid-session; another credential must do it.
  if (ctx.actor?.apiKeyId === row.id) throw validationFailed([{ field: 'id', message: 'is the API key this request is made with; revoke it with another credential' }]);
  // revokeApiKeys also drops the key from this process's verified-key cache.
  if (row.enabled !== false) await ctx.services.identity.revokeApiKeys(ctx.db, [row.id]);
  return view({ ...row, enabled: false });
}
