// Point-of-sale identity: operator PINs, PIN login into a per-shift API key, manager overrides.
//
// Rules (README.md has the flow):
//   - A PIN is 4–8 digits, stored as scrypt with its own salt (pin.ts); never returned or logged
//     (the audit snapshot redacts `pin`, and no entry carries it).
//   - Setting a PIN again rotates it: the pin version moves on, every unrevoked shift key of the
//     operator is disabled (ctx.services.identity.revokeApiKeys) and the lockout is cleared.
//   - Wrong PINs are counted per operator id as typed, whether or not it exists: `pinAttempts`
//     wrong PINs per window, then 429 before anything is looked up (rate-limiter-flexible; Redis
//     when REDIS_URL is set), and `maxFailures` consecutive wrong PINs lock that id
//     (403) until a pos:admin sets its PIN again, with an audit entry `pos.operatorLock`.
//     Unknown ids, ids without a PIN and wrong PINs get the same 401 body after the same scrypt
//     work (a dummy hash), and unknown ids are locked the same way — nothing tells which ids
//     are real operators.
//   - Failures must be recorded although the call fails, so these operations run their own
//     transactions (they opt out of the route builder's one-transaction audit and write their
//     entries themselves).
import { createHash, randomBytes } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ioredis } from '../../src/lazy.js';
import type { RequestContext } from '../../src/context.js';
import type { Config } from '../../src/config/index.js';
import type { Tx } from '../../src/db/client.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { withTransaction } from '../../src/db/transaction.js';
import { AppError, notFound, validationFailed } from '../../src/errors.js';
import { hasPermission, rolePermissions } from '../../src/auth/permissions.js';
import { attributeIdentityChanges, recordAudit } from '../../src/modules/audit/record.js';
import { dummyHash, hashPin, verifyPin } from './pin.js';

export const OVERRIDE_ACTIONS = ['price_override', 'refund_over_cap', 'no_receipt_return'] as const;
export type OverrideAction = (typeof OVERRIDE_ACTIONS)[number];
/** The API-key scope shift keys are minted under. */
export const SHIFT_SCOPE = 'pos';
/** What a manager holds to authorize overrides. */
export const MANAGER_PERMISSION = 'pos:manage';
/** Roles that may not operate a till (shoppers). */
const NON_OPERATOR_ROLES = new Set(['customer']);

export interface PosAuthOptions {
  shiftMinutes: number;
  maxFailures: number;
  pinAttempts: { points: number; durationSeconds: number };
  overrideTtlSeconds: number;
}

type Ctx = RequestContext;

const REFUSED = 'The operator and PIN do not match an operator of this store';
const refused = () => new AppError('UNAUTHORIZED', REFUSED);
const locked = (maxFailures: number) => new AppError('FORBIDDEN', `This operator is locked after ${maxFailures} wrong PINs: a manager must set a new PIN (PUT /api/pos/auth/pin)`);

// ── rate limit per operator id (rate-limiter-flexible: memory, or Redis when REDIS_URL is set) ──

const limiters = new WeakMap<Config, RateLimiterAbstract>();
function limiter(config: Config, options: PosAuthOptions): RateLimiterAbstract {
  let l = limiters.get(config);
  if (!l) {
    const base = { keyPrefix: `${config.rateLimit.keyPrefix}:pos-pin`, points: options.pinAttempts.points, duration: options.pinAttempts.durationSeconds };
    if (config.redisUrl) {
      const redis = new (ioredis().Redis)(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined);
      l = new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter: new RateLimiterMemory(base) });
    } else l = new RateLimiterMemory(base);
    limiters.set(config, l);
  }
  return l;
}

function rateKey(ctx: Ctx, operatorId: string): string {
  return `${ctx.organization.id}:${operatorId}`;
}

/**
 * Spends one point of the id's budget before its PIN is checked (429 once the window's budget is
 * used): consuming is one atomic step, so parallel attempts cannot all pass a read of the budget.
 * A good PIN gives its point back (a busy manager's good PINs cost nothing).
 */
async function spendBudget(ctx: Ctx, options: PosAuthOptions, operatorId: string): Promise<void> {
  try {
    await limiter(ctx.config, options).consume(rateKey(ctx, operatorId));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new AppError('TOO_MANY_REQUESTS', `Too many wrong PINs for this operator; retry after ${retryAfter} seconds`, { retryAfter });
  }
}

async function refundBudget(ctx: Ctx, options: PosAuthOptions, operatorId: string): Promise<void> {
  await limiter(ctx.config, options).reward(rateKey(ctx, operatorId), 1);
}

// ── PINs ──

export async function setPin(ctx: Ctx, input: { operatorId: string; pin: string }) {
  const org = ctx.organization.id;
  // pos:admin may see which users exist: 404 / 422 here tell the admin what to fix.
  const user = await ctx.db.user.findFirst({ where: { id: input.operatorId, organizationId: org }, select: { id: true, role: true, email: true } });
  if (!user) throw notFound('Operator');
  if (NON_OPERATOR_ROLES.has(user.role)) throw validationFailed([{ field: 'operatorId', message: `a ${user.role} account cannot operate a till` }]);
  const pinHash = await hashPin(input.pin);
  return withTransaction(ctx, async (tx) => {
    await attributeIdentityChanges(tx, ctx);
    // The row lock (upsert) serializes a rotation with a login minting under the old version.
    const existing = await tx.$queryRaw<Array<{ pin_version: number }>>`
      select pin_version from plugin_pos_operator_pins where organization_id = ${org}::uuid and user_id = ${user.id} for update`;
    const version = (existing[0]?.pin_version ?? 0) + 1;
    await tx.posOperatorPin.upsert({
      where: { organizationId_userId: { organizationId: org, userId: user.id } },
      create: { organizationId: org, userId: user.id, pinHash, pinVersion: version },
      update: { pinHash, pinVersion: version },
    });
    const shifts = await tx.posShift.findMany({ where: { organizationId: org, operatorId: user.id, revokedAt: null }, select: { id: true, apiKeyId: true } });
    await ctx.services.identity.revokeApiKeys(
      tx,
      shifts.map((s) => s.apiKeyId),
    );
    if (shifts.length) await tx.posShift.updateMany({ where: { id: { in: shifts.map((s) => s.id) } }, data: { revokedAt: new Date() } });
    await tx.posPinAttempt.deleteMany({ where: { organizationId: org, operatorId: user.id } });
    // The route builder writes the audit entry (pos.pinSet / pos.pinRotate) in this transaction.
    return { operatorId: user.id, pinVersion: version, rotated: version > 1, revokedShiftKeys: shifts.length };
  });
}

/**
 * Checks an operator id and PIN the same way whether or not the operator exists. The attempt is
 * counted BEFORE the PIN is verified, by one conditional statement that adds a failure only while
 * the id is unlocked and under the lockout: parallel attempts each take a slot or are refused, so
 * at most `maxFailures` wrong PINs are ever verified in a row (checking first and counting after
 * the slow scrypt let 59 of 60 parallel wrong PINs through, and the right one among them). A good
 * PIN clears the count; a wrong one keeps it, and the one that fills the last slot locks the id
 * (audited). Returns the operator on success; throws the one refusal otherwise.
 */
async function checkPin(ctx: Ctx, options: PosAuthOptions, operatorId: string, pin: string, purpose: string) {
  const org = ctx.organization.id;
  await spendBudget(ctx, options, operatorId);
  const [slot] = await ctx.db.$queryRaw<Array<{ failures: number }>>`
    insert into plugin_pos_pin_attempts (organization_id, operator_id, failures, last_failure_at)
    values (${org}::uuid, ${operatorId}, 1, now())
    on conflict (organization_id, operator_id)
    do update set failures = plugin_pos_pin_attempts.failures + 1, last_failure_at = now()
      where plugin_pos_pin_attempts.locked_at is null and plugin_pos_pin_attempts.failures < ${options.maxFailures}
    returning failures`;
  if (!slot) {
    // No slot: locked, or the last slots are taken by checks still running. Neither spends budget.
    await refundBudget(ctx, options, operatorId);
    const attempts = await ctx.db.posPinAttempt.findUnique({ where: { organizationId_operatorId: { organizationId: org, operatorId } } });
    if (!attempts || attempts.lockedAt) throw locked(options.maxFailures);
    throw new AppError('TOO_MANY_REQUESTS', 'Other PIN checks for this operator are still running; retry after 1 second', { retryAfter: 1 });
  }
  const row = await ctx.db.posOperatorPin.findUnique({ where: { organizationId_userId: { organizationId: org, userId: operatorId } } });
  const user = row ? await ctx.db.user.findFirst({ where: { id: operatorId, organizationId: org }, select: { id: true, role: true, email: true } }) : null;
  const ok = await verifyPin(pin, row && user ? row.pinHash : await dummyHash());
  if (ok && row && user && !NON_OPERATOR_ROLES.has(user.role)) {
    await refundBudget(ctx, options, operatorId);
    await ctx.db.posPinAttempt.deleteMany({ where: { organizationId: org, operatorId, lockedAt: null } });
    return { user, pinVersion: row.pinVersion };
  }
  if (slot.failures < options.maxFailures) throw refused();
  // The last slot locks the id, unless a good PIN checked meanwhile has cleared the count.
  const lockedNow = await withTransaction(ctx, async (tx) => {
    const updated = await tx.posPinAttempt.updateMany({
      where: { organizationId: org, operatorId, lockedAt: null, failures: { gte: options.maxFailures } },
      data: { lockedAt: new Date() },
    });
    if (!updated.count) return false;
    await recordAudit(tx, ctx, {
      event: 'pos.operatorLock',
      entityType: 'pos_operator',
      entityId: operatorId,
      after: { operatorId, failures: slot.failures, maxFailures: options.maxFailures, during: purpose },
    });
    return true;
  });
  throw lockedNow ? locked(options.maxFailures) : refused();
}

// ── PIN login → per-shift key ──

export async function pinLogin(ctx: Ctx, options: PosAuthOptions, input: { operatorId: string; pin: string; registerId: string; shiftMinutes?: number | null }) {
  const org = ctx.organization.id;
  const { user, pinVersion } = await checkPin(ctx, options, input.operatorId, input.pin, 'pin-login');
  const ttlSeconds = (input.shiftMinutes ?? options.shiftMinutes) * 60;
  return withTransaction(ctx, async (tx) => {
    // A rotation that committed since the check wins: the key would be born revoked.
    const [current] = await tx.$queryRaw<Array<{ pin_version: number }>>`
      select pin_version from plugin_pos_operator_pins where organization_id = ${org}::uuid and user_id = ${user.id} for share`;
    if (current?.pin_version !== pinVersion) throw refused();
    await attributeIdentityChanges(tx, ctx);
    const minted = await ctx.services.identity.mintApiKey(tx, {
      scope: SHIFT_SCOPE,
      userId: user.id,
      organizationId: org,
      name: `pos shift ${input.registerId}`,
      ttlSeconds,
      minTtlSeconds: 15 * 60,
    });
    const expiresAt = minted.expiresAt ?? new Date(Date.now() + ttlSeconds * 1000);
    const shift = await tx.posShift.create({
      data: { organizationId: org, operatorId: user.id, registerId: input.registerId, apiKeyId: minted.id, pinVersion, expiresAt },
    });
    const view = { shiftId: shift.id, operatorId: user.id, registerId: input.registerId, apiKeyId: minted.id, scope: SHIFT_SCOPE, expiresAt: expiresAt.toISOString() };
    await recordAudit(tx, ctx, { event: 'pos.pinLogin', entityType: 'pos_shift', entityId: shift.id, after: view });
    // The key is in the answer only: shown once.
    return { ...view, apiKey: minted.key };
  });
}

// ── manager overrides ──

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What a no_receipt_return override approves (stored on it; the return must match it). */
export interface ReturnApproval {
  currency: string;
  /** The most the return may pay out, in minor units of `currency`. */
  amount: number;
  lines: Array<{ entityId: string; variantId?: string | null; quantity: number }>;
}

type ApprovalInput = { [K in keyof ReturnApproval]?: ReturnApproval[K] | null };

/** The approval a no_receipt_return override carries: all three fields for it, none for other actions (422). */
function approvalOf(input: { action: OverrideAction } & ApprovalInput): ReturnApproval | null {
  const fields = (['currency', 'amount', 'lines'] as const).filter((f) => input[f] !== undefined && input[f] !== null);
  if (input.action !== 'no_receipt_return') {
    if (fields.length) throw validationFailed(fields.map((field) => ({ field, message: 'only a no_receipt_return override approves lines and an amount' })));
    return null;
  }
  const missing = (['currency', 'amount', 'lines'] as const).filter((f) => !fields.includes(f));
  if (missing.length) throw validationFailed(missing.map((field) => ({ field, message: 'is required: a no_receipt_return override approves definite lines and an amount' })));
  return { currency: input.currency!, amount: input.amount!, lines: input.lines!.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null, quantity: l.quantity })) };
}

export async function createOverride(
  ctx: Ctx,
  options: PosAuthOptions,
  input: { managerId: string; pin: string; action: OverrideAction; reason?: string | null; registerId?: string | null } & ApprovalInput,
) {
  const org = ctx.organization.id;
  // Checked before the PIN: a malformed request costs the manager no attempt.
  const approval = approvalOf(input);
  const { user } = await checkPin(ctx, options, input.managerId, input.pin, `override:${input.action}`);
  const permissions = rolePermissions(ctx.config.auth.roles, user.role);
  if (!hasPermission(permissions, MANAGER_PERMISSION)) {
    throw new AppError('FORBIDDEN', `This operator may not authorize overrides (needs ${MANAGER_PERMISSION})`);
  }
  const token = `pos_ovr_${randomBytes(24).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + options.overrideTtlSeconds * 1000);
  return withTransaction(ctx, async (tx) => {
    const row = await tx.posOverride.create({
      data: {
        organizationId: org,
        action: input.action,
        tokenHash: hashToken(token),
        managerId: user.id,
        requestedBy: ctx.actor!.userId,
        requestedKeyId: ctx.actor!.apiKeyId ?? null,
        registerId: input.registerId ?? null,
        reason: input.reason ?? null,
        expiresAt,
        ...(approval ? { approval: approval as unknown as Prisma.InputJsonObject } : {}),
      },
    });
    const view = {
      overrideId: row.id,
      action: row.action,
      managerId: user.id,
      requestedBy: row.requestedBy,
      registerId: row.registerId,
      expiresAt: expiresAt.toISOString(),
      ...(approval ? { approval } : {}),
    };
    // Both actors: the cashier is the entry's actor, the manager who typed the PIN is in it.
    await recordAudit(tx, ctx, { event: 'pos.overrideGrant', entityType: 'pos_override', entityId: row.id, after: { ...view, reason: row.reason } });
    return { ...view, token };
  });
}

/**
 * Consumes an override token for `action` inside the caller's transaction: single use (a used
 * token is 409), short-lived (an expired one 422), for the action it was granted for (422).
 */
export async function consumeOverride(tx: Tx, ctx: Ctx, token: string, action: OverrideAction, usedFor: string, field = 'overrideToken') {
  const org = ctx.organization.id;
  const now = new Date();
  const tokenHash = hashToken(token);
  const claimed = await tx.posOverride.updateMany({
    where: { organizationId: org, tokenHash, action, consumedAt: null, expiresAt: { gt: now } },
    data: { consumedAt: now, consumedBy: usedFor },
  });
  const row = await tx.posOverride.findFirst({ where: { organizationId: org, tokenHash } });
  if (claimed.count === 1 && row) {
    await recordAudit(tx, ctx, {
      event: 'pos.overrideUse',
      entityType: 'pos_override',
      entityId: row.id,
      after: { overrideId: row.id, action, managerId: row.managerId, usedFor },
    });
    return row;
  }
  if (!row) throw validationFailed([{ field, message: 'is not an override token of this store' }], 'Unknown override token');
  if (row.action !== action) throw validationFailed([{ field, message: `authorizes ${row.action}, not ${action}` }], 'Override token for another action');
  if (row.consumedAt)
    throw new AppError('CONFLICT', 'This override token was already used', { fields: [field], consumedAt: row.consumedAt.toISOString(), consumedBy: row.consumedBy });
  throw validationFailed([{ field, message: `expired at ${row.expiresAt.toISOString()}` }], 'Override token expired');
}
