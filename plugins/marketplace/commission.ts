// Commission rules: a percentage (basis points) and/or a fixed amount per line, scoped to a
// vendor, a category, both, or neither (global), valid in an optional window. For a line the
// most specific valid rule wins: vendor + category, then vendor, then category, then global;
// among equals the newest. The commission is applyBps(line net, rateBps) + fixedAmount, never
// above the line net (shared.ts rounds once). The rule applied is copied onto the sub-order line
// at checkout, so editing or deleting a rule never changes a past commission.
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Tx } from '../../src/db/client.js';
import { withTransaction } from '../../src/db/transaction.js';
import { notFound, validationFailed } from '../../src/errors.js';
import { applyBps, iso, num, type Ctx } from './shared.js';

type RuleRow = Prisma.MarketplaceCommissionRuleGetPayload<object>;

export function ruleView(r: RuleRow) {
  return {
    id: r.id,
    name: r.name,
    vendorId: r.vendorId,
    categoryId: r.categoryId,
    rateBps: r.rateBps,
    fixedAmount: num(r.fixedAmount),
    validFrom: iso(r.validFrom),
    validUntil: iso(r.validUntil),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
export type RuleSnapshot = ReturnType<typeof ruleView> | null;

export interface RuleInput {
  name: string;
  vendorId?: string | null;
  categoryId?: string | null;
  rateBps?: number;
  fixedAmount?: number;
  validFrom?: Date | null;
  validUntil?: Date | null;
}

async function checkRefs(
  tx: Tx,
  organizationId: string,
  input: Partial<RuleInput>,
  merged: { rateBps: number; fixedAmount: number; validFrom: Date | null; validUntil: Date | null },
) {
  const issues: Array<{ field: string; message: string }> = [];
  if (input.vendorId && !(await tx.marketplaceVendor.findFirst({ where: { id: input.vendorId, organizationId }, select: { id: true } })))
    issues.push({ field: 'vendorId', message: 'is not a vendor of this organization' });
  if (input.categoryId && !(await tx.catalogCategory.findFirst({ where: { id: input.categoryId, organizationId }, select: { id: true } })))
    issues.push({ field: 'categoryId', message: 'is not a category of this organization' });
  if (merged.rateBps === 0 && merged.fixedAmount === 0) issues.push({ field: 'rateBps', message: 'a rule needs a rate, a fixed amount or both' });
  if (merged.validFrom && merged.validUntil && merged.validFrom >= merged.validUntil) issues.push({ field: 'validUntil', message: 'must be after validFrom' });
  if (issues.length) throw validationFailed(issues);
}

export async function createRule(ctx: Ctx, input: RuleInput) {
  return withTransaction(ctx, async (tx) => {
    const merged = { rateBps: input.rateBps ?? 0, fixedAmount: input.fixedAmount ?? 0, validFrom: input.validFrom ?? null, validUntil: input.validUntil ?? null };
    await checkRefs(tx, ctx.organization.id, input, merged);
    const row = await tx.marketplaceCommissionRule.create({
      data: {
        organizationId: ctx.organization.id,
        name: input.name,
        vendorId: input.vendorId ?? null,
        categoryId: input.categoryId ?? null,
        rateBps: merged.rateBps,
        fixedAmount: BigInt(merged.fixedAmount),
        validFrom: merged.validFrom,
        validUntil: merged.validUntil,
      },
    });
    return ruleView(row);
  });
}

export async function listRules(ctx: Ctx, input: { vendorId?: string; limit: number; offset: number }) {
  const where = { organizationId: ctx.organization.id, ...(input.vendorId ? { vendorId: input.vendorId } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.marketplaceCommissionRule.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit, skip: input.offset }),
    ctx.db.marketplaceCommissionRule.count({ where }),
  ]);
  return { data: rows.map(ruleView), meta: { total, limit: input.limit, offset: input.offset } };
}

export async function updateRule(ctx: Ctx, id: string, patch: Partial<RuleInput>) {
  return withTransaction(ctx, async (tx) => {
    const rule = await tx.marketplaceCommissionRule.findFirst({ where: { id, organizationId: ctx.organization.id } });
    if (!rule) throw notFound('Commission rule');
    const merged = {
      rateBps: patch.rateBps ?? rule.rateBps,
      fixedAmount: patch.fixedAmount ?? num(rule.fixedAmount),
      validFrom: patch.validFrom !== undefined ? patch.validFrom : rule.validFrom,
      validUntil: patch.validUntil !== undefined ? patch.validUntil : rule.validUntil,
    };
    await checkRefs(tx, ctx.organization.id, patch, merged);
    const row = await tx.marketplaceCommissionRule.update({
      where: { id: rule.id },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.vendorId !== undefined ? { vendorId: patch.vendorId } : {}),
        ...(patch.categoryId !== undefined ? { categoryId: patch.categoryId } : {}),
        rateBps: merged.rateBps,
        fixedAmount: BigInt(merged.fixedAmount),
        validFrom: merged.validFrom,
        validUntil: merged.validUntil,
      },
    });
    return ruleView(row);
  });
}

export async function deleteRule(ctx: Ctx, id: string) {
  return withTransaction(ctx, async (tx) => {
    const rule = await tx.marketplaceCommissionRule.findFirst({ where: { id, organizationId: ctx.organization.id } });
    if (!rule) throw notFound('Commission rule');
    await tx.marketplaceCommissionRule.delete({ where: { id: rule.id } });
    return ruleView(rule);
  });
}

/** How specific a rule is for a line: higher wins; -1 when it does not apply. */
function specificity(rule: RuleRow, vendorId: string, categories: Set<string>): number {
  if (rule.vendorId && rule.vendorId !== vendorId) return -1;
  if (rule.categoryId && !categories.has(rule.categoryId)) return -1;
  return (rule.vendorId ? 2 : 0) + (rule.categoryId ? 1 : 0);
}

/**
 * The commission of a line under the rules in force (read valid at the time, newest first, by
 * rulesJsonSql) and the lines' category links: checkout's hook reads both with the lines'
 * vendors in one statement (sub-orders.ts).
 */
export function resolverFrom(rules: RuleRow[], links: ReadonlyArray<{ entityId: string; categoryId: string }>) {
  const categoriesOf = new Map<string, Set<string>>();
  for (const l of links) {
    const set = categoriesOf.get(l.entityId) ?? new Set<string>();
    set.add(l.categoryId);
    categoriesOf.set(l.entityId, set);
  }
  return (vendorId: string, entityId: string, lineNet: number): { amount: number; rule: RuleSnapshot } => {
    let best: RuleRow | null = null;
    let bestScore = -1;
    for (const rule of rules) {
      const score = specificity(rule, vendorId, categoriesOf.get(entityId) ?? new Set());
      if (score > bestScore) [best, bestScore] = [rule, score];
    }
    if (!best) return { amount: 0, rule: null };
    const amount = Math.min(lineNet, Math.max(0, applyBps(lineNet, best.rateBps) + num(best.fixedAmount)));
    return { amount, rule: ruleView(best) };
  };
}

/** The rules of organization `org` valid at `at`, newest first, as one JSON array (see ruleFromJson). */
export function rulesJsonSql(org: string, at: Date): Prisma.Sql {
  return Prisma.sql`(select coalesce(json_agg(json_build_object('id', r.id, 'organizationId', r.organization_id, 'name', r.name, 'vendorId', r.vendor_id,
      'categoryId', r.category_id, 'rateBps', r.rate_bps, 'fixedAmount', r.fixed_amount::text, 'validFrom', r.valid_from, 'validUntil', r.valid_until,
      'createdAt', r.created_at, 'updatedAt', r.updated_at) order by r.created_at desc, r.id desc), '[]'::json)
    from plugin_marketplace_commission_rules r
    where r.organization_id = ${org}::uuid and (r.valid_from is null or r.valid_from <= ${at}) and (r.valid_until is null or r.valid_until > ${at}))`;
}

type RuleJson = Omit<RuleRow, 'fixedAmount' | 'validFrom' | 'validUntil' | 'createdAt' | 'updatedAt'> & {
  fixedAmount: string;
  validFrom: string | null;
  validUntil: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A rule row from rulesJsonSql's JSON (bigint as text, timestamps as ISO strings). */
export function ruleFromJson(r: RuleJson): RuleRow {
  const date = (v: string | null) => (v === null ? null : new Date(v));
  return {
    ...r,
    fixedAmount: BigInt(r.fixedAmount),
    validFrom: date(r.validFrom),
    validUntil: date(r.validUntil),
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
  };
}
export type { RuleJson };
