// One import batch in one transaction: a few products' rows become entities, localized texts,
// categories, brand, option axes, variants, prices and stock, by set-based statements whose
// count does not depend on the batch size (reads: one per table; writes: one createMany per
// table plus one statement per row that really changed). Anything already as the file says is
// left alone, so importing the same file twice writes nothing the second time: no update, no
// movement, no event. The batch's changes raise one `catalog.import` event, not one per row.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client.js';
import { recordEvent } from '../../events/outbox.js';
import { LOCALIZED, type LocalizedField, type ProductFields, type Ref, type RowError, type VariantFields } from './format.js';

declare module '../../events/registry.js' {
  interface EventPayloads {
    'catalog.import': { jobId: string; entityIds: string[]; created: number; updated: number };
  }
}

export interface ProductGroup {
  slug: string;
  rows: number[];
  product: ProductFields;
  variants: Array<VariantFields & { row: number }>;
}

export interface BatchEnv {
  organizationId: string;
  jobId: string;
  actorId: string | null;
  /** Products that exist may be written (the importer holds catalog:update). */
  mayUpdate: boolean;
  /** warehouse code → id */
  warehouses: Map<string, string>;
}

export interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
  /** Rows of products refused by a check against the database. */
  failedRows: number;
  errors: RowError[];
  /** slug → entity id of every product written (images are attached after commit). */
  entityIds: Map<string, string>;
}

const FIELD_COLUMN: Record<LocalizedField, string> = Object.fromEntries(Object.entries(LOCALIZED).map(([column, field]) => [field, column])) as never;

function optionTuple(options: Array<[string, string]>): string {
  return options.map(([n, v]) => `${n}=${v}`).join('\u0001');
}

/** Checks against the database that can refuse a product: SKUs of other products, option clashes, unknown warehouses. */
async function refusals(tx: Tx, env: BatchEnv, groups: ProductGroup[]): Promise<Map<ProductGroup, RowError[]>> {
  const refused = new Map<ProductGroup, RowError[]>();
  const refuse = (group: ProductGroup, error: RowError) => refused.set(group, [...(refused.get(group) ?? []), error]);
  const skus = groups.flatMap((g) => g.variants.map((v) => v.sku));
  const bySku = new Map<string, ProductGroup>();
  for (const group of groups) {
    for (const [code] of group.product.stock) {
      // biome-ignore lint/style/noNonNullAssertion: a product group is made from at least one CSV row
      if (!env.warehouses.has(code)) refuse(group, { row: group.rows[0]!, column: `stock:${code}`, message: `no warehouse with code ${code}` });
    }
    for (const variant of group.variants) {
      for (const [code] of variant.stock) if (!env.warehouses.has(code)) refuse(group, { row: variant.row, column: `stock:${code}`, message: `no warehouse with code ${code}` });
      const other = bySku.get(variant.sku);
      if (other) refuse(group, { row: variant.row, column: 'sku', message: `${variant.sku} appears twice in the file` });
      bySku.set(variant.sku, group);
    }
  }
  const known = skus.length
    ? await tx.$queryRaw<Array<{ sku: string; slug: string; entity_id: string }>>`
        select v.sku, e.slug, v.entity_id from catalog_variants v join catalog_entities e on e.id = v.entity_id
        where v.organization_id = ${env.organizationId}::uuid and v.sku = any(${skus}::text[])`
    : [];
  for (const row of known) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const group = bySku.get(row.sku)!;
    if (row.slug !== group.slug) {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      const variant = group.variants.find((v) => v.sku === row.sku)!;
      refuse(group, { row: variant.row, column: 'sku', message: `${row.sku} is a variant of product ${row.slug}` });
    }
  }
  // The option values of the products' other variants (not in the file): a combination exists once per product.
  if (!env.mayUpdate) {
    const present = await tx.catalogEntity.findMany({ where: { organizationId: env.organizationId, slug: { in: groups.map((g) => g.slug) } }, select: { slug: true } });
    const taken = new Set(present.map((e) => e.slug));
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    for (const group of groups) if (taken.has(group.slug)) refuse(group, { row: group.rows[0]!, column: 'slug', message: 'this product exists; changing it needs catalog:update' });
  }
  const existing = await tx.$queryRaw<Array<{ slug: string; sku: string; tuple: string }>>`
    select e.slug, v.sku, coalesce(string_agg(t.name || '=' || ov.value, chr(1) order by t.name), '') as tuple
    from catalog_entities e join catalog_variants v on v.entity_id = e.id
    left join catalog_variant_options vo on vo.variant_id = v.id
    left join catalog_option_values ov on ov.id = vo.option_value_id
    left join catalog_option_types t on t.id = vo.option_type_id
    where e.organization_id = ${env.organizationId}::uuid and e.slug = any(${groups.map((g) => g.slug)}::text[])
    group by e.slug, v.sku`;
  const others = new Map<string, Map<string, string>>();
  for (const row of existing) others.set(row.slug, (others.get(row.slug) ?? new Map()).set(row.sku, row.tuple));
  for (const group of groups) {
    const taken = new Map<string, string>();
    for (const [sku, tuple] of others.get(group.slug) ?? []) if (!bySku.has(sku) || bySku.get(sku) !== group) taken.set(tuple, sku);
    for (const variant of group.variants) {
      const tuple = optionTuple(variant.options);
      const holder = taken.get(tuple);
      if (holder !== undefined)
        refuse(group, { row: variant.row, column: 'sku', message: `${holder} already has these option values (${tuple.replaceAll('\u0001', ', ') || 'none'})` });
      taken.set(tuple, variant.sku);
    }
  }
  return refused;
}

/** Brands or categories by slug, creating the missing ones (named by their first mention). */
async function ensureRefs(tx: Tx, env: BatchEnv, table: 'brand' | 'category', refs: Ref[]): Promise<Map<string, string>> {
  if (!refs.length) return new Map();
  const unique = [...new Map(refs.map((r) => [r.slug, r])).values()];
  const slugs = unique.map((r) => r.slug);
  const data = unique.map((r) => ({ id: randomUUID(), organizationId: env.organizationId, slug: r.slug, name: r.name }));
  if (table === 'brand') {
    await tx.catalogBrand.createMany({ data, skipDuplicates: true });
    const rows = await tx.catalogBrand.findMany({ where: { organizationId: env.organizationId, slug: { in: slugs } }, select: { id: true, slug: true } });
    return new Map(rows.map((r) => [r.slug, r.id]));
  }
  await tx.catalogCategory.createMany({ data, skipDuplicates: true });
  const rows = await tx.catalogCategory.findMany({ where: { organizationId: env.organizationId, slug: { in: slugs } }, select: { id: true, slug: true } });
  return new Map(rows.map((r) => [r.slug, r.id]));
}

export async function applyBatch(tx: Tx, env: BatchEnv, input: ProductGroup[]): Promise<BatchResult> {
  const org = env.organizationId;
  const refused = await refusals(tx, env, input);
  const errors = [...refused.values()].flat();
  const groups = input.filter((g) => !refused.has(g));
  const result: BatchResult = { created: 0, updated: 0, unchanged: 0, failedRows: [...refused.keys()].reduce((n, g) => n + g.rows.length, 0), errors, entityIds: new Map() };
  if (!groups.length) return result;
  const changed = new Set<string>();
  const now = new Date();

  // ── entities ──
  const slugs = groups.map((g) => g.slug);
  const entities = await tx.catalogEntity.findMany({
    where: { organizationId: org, slug: { in: slugs } },
    select: { id: true, slug: true, type: true, status: true, publishedAt: true },
  });
  const entityBySlug = new Map(entities.map((e) => [e.slug, e]));
  const created = new Set<string>();
  const newEntities = groups
    .filter((g) => !entityBySlug.has(g.slug))
    .map((g) => {
      const status = g.product.status ?? 'draft';
      const row = { id: randomUUID(), organizationId: org, slug: g.slug, type: g.product.type ?? 'product', status, publishedAt: status === 'active' ? now : null };
      created.add(row.id);
      entityBySlug.set(g.slug, row);
      return row;
    });
  if (newEntities.length) await tx.catalogEntity.createMany({ data: newEntities });
  for (const group of groups) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const entity = entityBySlug.get(group.slug)!;
    result.entityIds.set(group.slug, entity.id);
    if (created.has(entity.id)) continue;
    const type = group.product.type ?? entity.type;
    const status = group.product.status ?? entity.status;
    if (type !== entity.type || status !== entity.status) {
      await tx.catalogEntity.update({ where: { id: entity.id }, data: { type, status, ...(status === 'active' && !entity.publishedAt ? { publishedAt: now } : {}) } });
      changed.add(entity.id);
    }
  }
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const entityIds = groups.map((g) => entityBySlug.get(g.slug)!.id);

  // ── localized texts ──
  const attributes = await tx.catalogAttributes.findMany({ where: { organizationId: org, entityId: { in: entityIds } } });
  const attributeOf = new Map(attributes.map((a) => [`${a.entityId}|${a.locale}`, a]));
  const newAttributes: Array<{ entityId: string; locale: string; organizationId: string } & Partial<Record<LocalizedField, string>>> = [];
  for (const group of groups) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const entityId = entityBySlug.get(group.slug)!.id;
    for (const [locale, texts] of group.product.attributes) {
      const current = attributeOf.get(`${entityId}|${locale}`);
      if (!current) {
        newAttributes.push({ entityId, locale, organizationId: org, ...texts });
        changed.add(entityId);
        continue;
      }
      const diff = Object.fromEntries((Object.entries(texts) as Array<[LocalizedField, string]>).filter(([field, text]) => current[field] !== text));
      if (Object.keys(diff).length) {
        await tx.catalogAttributes.update({ where: { entityId_locale: { entityId, locale } }, data: diff });
        changed.add(entityId);
      }
    }
  }
  if (newAttributes.length) await tx.catalogAttributes.createMany({ data: newAttributes });

  // ── categories and brand: a non-empty cell sets the product's list ──
  const categoryIds = await ensureRefs(
    tx,
    env,
    'category',
    groups.flatMap((g) => g.product.categories ?? []),
  );
  const brandIds = await ensureRefs(
    tx,
    env,
    'brand',
    groups.flatMap((g) => (g.product.brand ? [g.product.brand] : [])),
  );
  const [memberships, brandLinks] = await Promise.all([
    tx.catalogEntityCategory.findMany({ where: { organizationId: org, entityId: { in: entityIds } }, select: { entityId: true, categoryId: true } }),
    tx.catalogEntityBrand.findMany({ where: { organizationId: org, entityId: { in: entityIds } }, select: { entityId: true, brandId: true } }),
  ]);
  const linksToAdd: {
    categories: Array<{ entityId: string; categoryId: string; organizationId: string }>;
    brands: Array<{ entityId: string; brandId: string; organizationId: string }>;
  } = { categories: [], brands: [] };
  for (const group of groups) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const entityId = entityBySlug.get(group.slug)!.id;
    if (group.product.categories) {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      const want = new Set(group.product.categories.map((c) => categoryIds.get(c.slug)!));
      const have = new Set(memberships.filter((m) => m.entityId === entityId).map((m) => m.categoryId));
      const drop = [...have].filter((id) => !want.has(id));
      const add = [...want].filter((id) => !have.has(id));
      if (drop.length) await tx.catalogEntityCategory.deleteMany({ where: { entityId, categoryId: { in: drop } } });
      linksToAdd.categories.push(...add.map((categoryId) => ({ entityId, categoryId, organizationId: org })));
      if (drop.length || add.length) changed.add(entityId);
    }
    if (group.product.brand) {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      const want = brandIds.get(group.product.brand.slug)!;
      const have = brandLinks.filter((l) => l.entityId === entityId).map((l) => l.brandId);
      const drop = have.filter((id) => id !== want);
      if (drop.length) await tx.catalogEntityBrand.deleteMany({ where: { entityId, brandId: { in: drop } } });
      if (!have.includes(want)) linksToAdd.brands.push({ entityId, brandId: want, organizationId: org });
      if (drop.length || !have.includes(want)) changed.add(entityId);
    }
  }
  if (linksToAdd.categories.length) await tx.catalogEntityCategory.createMany({ data: linksToAdd.categories });
  if (linksToAdd.brands.length) await tx.catalogEntityBrand.createMany({ data: linksToAdd.brands });

  // ── option axes and values ──
  const types = await tx.catalogOptionType.findMany({
    where: { organizationId: org, entityId: { in: entityIds } },
    select: { id: true, entityId: true, name: true, values: { select: { id: true, value: true } } },
  });
  const typeOf = new Map(types.map((t) => [`${t.entityId}|${t.name}`, { id: t.id, values: new Map(t.values.map((v) => [v.value, v.id])) }]));
  const newTypes: Array<{ id: string; organizationId: string; entityId: string; name: string; sortOrder: number }> = [];
  const newValues: Array<{ id: string; organizationId: string; optionTypeId: string; value: string; sortOrder: number }> = [];
  const valueIds = (entityId: string, options: Array<[string, string]>) =>
    options.map(([name, value]) => {
      let type = typeOf.get(`${entityId}|${name}`);
      if (!type) {
        type = { id: randomUUID(), values: new Map() };
        typeOf.set(`${entityId}|${name}`, type);
        newTypes.push({ id: type.id, organizationId: org, entityId, name, sortOrder: newTypes.filter((t) => t.entityId === entityId).length });
        changed.add(entityId);
      }
      let valueId = type.values.get(value);
      if (!valueId) {
        valueId = randomUUID();
        newValues.push({ id: valueId, organizationId: org, optionTypeId: type.id, value, sortOrder: type.values.size });
        type.values.set(value, valueId);
        changed.add(entityId);
      }
      return { optionTypeId: type.id, optionValueId: valueId };
    });
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const planned = groups.flatMap((g) => g.variants.map((v) => ({ group: g, variant: v, entityId: entityBySlug.get(g.slug)!.id })));
  const picks = planned.map((p) => valueIds(p.entityId, p.variant.options));
  if (newTypes.length) await tx.catalogOptionType.createMany({ data: newTypes });
  if (newValues.length) await tx.catalogOptionValue.createMany({ data: newValues });

  // ── variants ──
  const skus = planned.map((p) => p.variant.sku);
  const variants = skus.length
    ? await tx.catalogVariant.findMany({ where: { organizationId: org, sku: { in: skus } }, select: { id: true, sku: true, title: true, optionKey: true } })
    : [];
  const variantBySku = new Map(variants.map((v) => [v.sku, v]));
  const newVariants: Array<{ id: string; organizationId: string; entityId: string; sku: string; title: string | null; optionKey: string }> = [];
  const newVariantOptions: Array<{ variantId: string; optionTypeId: string; optionValueId: string; organizationId: string }> = [];
  const variantIdOf = new Map<string, string>();
  for (const [index, { variant, entityId }] of planned.entries()) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const chosen = picks[index]!;
    const optionKey = chosen
      .map((c) => c.optionValueId)
      .sort()
      .join(',');
    const current = variantBySku.get(variant.sku);
    if (!current) {
      const id = randomUUID();
      newVariants.push({ id, organizationId: org, entityId, sku: variant.sku, title: variant.title ?? null, optionKey });
      newVariantOptions.push(...chosen.map((c) => ({ variantId: id, ...c, organizationId: org })));
      variantIdOf.set(variant.sku, id);
      changed.add(entityId);
      continue;
    }
    variantIdOf.set(variant.sku, current.id);
    const title = variant.title ?? current.title;
    if (optionKey !== current.optionKey) {
      await tx.catalogVariantOption.deleteMany({ where: { variantId: current.id } });
      newVariantOptions.push(...chosen.map((c) => ({ variantId: current.id, ...c, organizationId: org })));
    }
    if (optionKey !== current.optionKey || title !== current.title) {
      await tx.catalogVariant.update({ where: { id: current.id }, data: { optionKey, title } });
      changed.add(entityId);
    }
  }
  if (newVariants.length) await tx.catalogVariant.createMany({ data: newVariants });
  if (newVariantOptions.length) await tx.catalogVariantOption.createMany({ data: newVariantOptions });

  // ── prices (customer-group-free) and stock, product level and per variant ──
  type Target = { entityId: string; variantId: string | null; prices: Map<string, number>; stock: Map<string, number>; row: number };
  const targets: Target[] = [
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    ...groups.map((g) => ({ entityId: entityBySlug.get(g.slug)!.id, variantId: null, prices: g.product.prices, stock: g.product.stock, row: g.rows[0]! })),
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    ...planned.map((p) => ({ entityId: p.entityId, variantId: variantIdOf.get(p.variant.sku)!, prices: p.variant.prices, stock: p.variant.stock, row: p.variant.row })),
  ];
  const [prices, levels] = await Promise.all([
    tx.price.findMany({
      where: { organizationId: org, entityId: { in: entityIds }, customerGroupId: null },
      select: { id: true, entityId: true, scopeKey: true, currency: true, amount: true },
    }),
    tx.inventoryLevel.findMany({
      where: { organizationId: org, entityId: { in: entityIds } },
      select: { id: true, entityId: true, variantKey: true, warehouseId: true, onHand: true },
    }),
  ]);
  const priceOf = new Map(prices.map((p) => [`${p.entityId}|${p.scopeKey}|${p.currency}`, p]));
  const levelOf = new Map(levels.map((l) => [`${l.warehouseId}|${l.entityId}|${l.variantKey}`, l]));
  const newPrices: Array<{ organizationId: string; entityId: string; variantId: string | null; currency: string; amount: bigint; scopeKey: string }> = [];
  const newLevels: Array<{ id: string; organizationId: string; entityId: string; variantId: string | null; variantKey: string; warehouseId: string; onHand: number }> = [];
  const movements: Array<{
    organizationId: string;
    levelId: string;
    entityId: string;
    variantId: string | null;
    warehouseId: string;
    type: string;
    quantity: number;
    onHandAfter: number;
    reference: string;
    note: string;
    actorId: string | null;
  }> = [];
  const reference = `import:${env.jobId}`;
  for (const target of targets) {
    const scopeKey = `${target.variantId ?? ''}|`;
    for (const [currency, amount] of target.prices) {
      const current = priceOf.get(`${target.entityId}|${scopeKey}|${currency}`);
      if (!current) newPrices.push({ organizationId: org, entityId: target.entityId, variantId: target.variantId, currency, amount: BigInt(amount), scopeKey });
      else if (current.amount !== BigInt(amount)) await tx.price.update({ where: { id: current.id }, data: { amount: BigInt(amount) } });
      else continue;
      changed.add(target.entityId);
    }
    for (const [code, onHand] of target.stock) {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      const warehouseId = env.warehouses.get(code)!;
      const variantKey = target.variantId ?? '';
      const current = levelOf.get(`${warehouseId}|${target.entityId}|${variantKey}`);
      const base = {
        organizationId: org,
        entityId: target.entityId,
        variantId: target.variantId,
        warehouseId,
        type: 'correction',
        reference,
        note: 'stock count from an import',
        actorId: env.actorId,
      };
      if (!current) {
        const id = randomUUID();
        newLevels.push({ id, organizationId: org, entityId: target.entityId, variantId: target.variantId, variantKey, warehouseId, onHand });
        if (onHand !== 0) movements.push({ ...base, levelId: id, quantity: onHand, onHandAfter: onHand });
      } else if (current.onHand !== onHand) {
        await tx.inventoryLevel.update({ where: { id: current.id }, data: { onHand } });
        movements.push({ ...base, levelId: current.id, quantity: onHand - current.onHand, onHandAfter: onHand });
      } else continue;
      changed.add(target.entityId);
    }
  }
  if (newPrices.length) await tx.price.createMany({ data: newPrices });
  if (newLevels.length) await tx.inventoryLevel.createMany({ data: newLevels });
  if (movements.length) await tx.inventoryMovement.createMany({ data: movements });

  // ── the batch's one event, and updatedAt of what changed ──
  const touched = [...changed].filter((id) => !created.has(id));
  if (touched.length) await tx.catalogEntity.updateMany({ where: { organizationId: org, id: { in: touched } }, data: { updatedAt: now } });
  if (changed.size) {
    await recordEvent(tx, { organizationId: org, actorId: env.actorId, requestId: `job:${env.jobId}` }, 'catalog.import', {
      jobId: env.jobId,
      entityIds: [...changed],
      created: created.size,
      updated: touched.length,
    });
  }
  result.created = created.size;
  result.updated = touched.length;
  result.unchanged = groups.length - created.size - touched.length;
  return result;
}

export { FIELD_COLUMN };
