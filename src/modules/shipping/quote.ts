// The shipping options of a cart: every active method whose zone contains the destination, that
// the cart is eligible for (subtotal range, max weight, customer groups) and that can price it,
// with its price, tax and estimate, cheapest first. Digital goods (entity type digitalDownload)
// ship nothing: a cart of only those has no options and needs no method.
// Each option's tax follows checkout's totals (checkout/totals.ts), so the option a shopper picks
// is what the order's shipping line then says: added on top (exclusive), extracted from the listed
// gross amount (settings general.pricesIncludeTax), or zero for an exempt customer group
// (settings tax.exemptCustomerGroupIds).
// Cost: one statement for the methods, their zones and warehouses, the cart's weight and the tax
// settings, plus one per distinct tax class of the eligible methods (tax/resolver.ts resolveClassRate).
import type { ServiceContext } from '../../db/transaction.js';
import { taxIncluded } from '../checkout/totals.js';
import { taxOn } from '../orders/money.js';
import { DIGITAL_ENTITY_TYPES } from '../customers/downloads.js';
import { resolveClassRate } from '../tax/resolver.js';
import { priceWith, type Calculator } from './calculators.js';
import type { MethodKind } from './methods.js';
import { zoneContains, type Destination } from './zones.js';

export interface QuoteLine {
  variantId: string | null;
  entityType: string;
  quantity: number;
  unitPrice: number;
}

export interface QuoteRequest {
  currency: string;
  destination: Destination;
  groups: readonly string[];
  lines: readonly QuoteLine[];
  /** Only this method (checkout prices the chosen one; other methods' tax classes are not resolved). */
  onlyMethodId?: string;
  /** The tax mode checkout already decided; when absent it is read from the settings and `groups`. */
  tax?: QuoteTax;
}

export interface QuoteTax {
  pricesIncludeTax: boolean;
  exempt: boolean;
}

export interface PickupLocation {
  warehouseId: string;
  name: string;
  address: Record<string, unknown> | null;
}

export interface ShippingOption {
  methodId: string;
  code: string;
  name: string;
  kind: MethodKind;
  currency: string;
  /** Minor units as charged: before tax (taxTotal added on top), or gross when prices include tax. */
  amount: number;
  taxClassId: string | null;
  taxRateBps: number;
  taxTotal: number;
  minDays: number | null;
  maxDays: number | null;
  pickupLocation: PickupLocation | null;
}

interface MethodRow {
  id: string;
  code: string;
  name: string;
  kind: string;
  tax_class_id: string | null;
  warehouse_id: string | null;
  warehouse_name: string | null;
  warehouse_address: Record<string, unknown> | null;
  min_days: number | null;
  max_days: number | null;
  calculator: Calculator;
  min_subtotal: bigint | null;
  max_subtotal: bigint | null;
  max_weight_grams: number | null;
  customer_group_ids: string[];
  countries: string[];
  regions: string[];
  postal_codes: string[];
  weight: bigint | number;
  general_settings: Record<string, unknown> | null;
  tax_settings: Record<string, unknown> | null;
}

export function shippableLines<L extends { entityType: string }>(lines: readonly L[]): L[] {
  return lines.filter((l) => !DIGITAL_ENTITY_TYPES.includes(l.entityType));
}

export interface Quote {
  options: ShippingOption[];
  /** Some active method's zone contains the destination (checkout then requires a method). */
  covered: boolean;
}

/** Eligible methods for the cart, priced, cheapest first (then by name). */
export async function quoteShipping(ctx: ServiceContext, request: QuoteRequest): Promise<Quote> {
  const lines = shippableLines(request.lines);
  if (!lines.length) return { options: [], covered: false };
  const org = ctx.organization.id;
  const variantIds = lines.map((l) => l.variantId);
  const quantities = lines.map((l) => l.quantity);
  const rows = await ctx.db.$queryRaw<MethodRow[]>`
    with weight as (
      select coalesce(sum(coalesce(v.weight_grams, 0)::bigint * q.qty), 0) as grams
      from unnest(${variantIds}::uuid[], ${quantities}::int[]) as q(variant_id, qty)
      left join catalog_variants v on v.id = q.variant_id and v.organization_id = ${org}::uuid
    )
    select m.id, m.code, m.name, m.kind, m.tax_class_id, m.warehouse_id, w.name as warehouse_name, w.address as warehouse_address,
      m.min_days, m.max_days, m.calculator, m.min_subtotal, m.max_subtotal, m.max_weight_grams, m.customer_group_ids,
      z.countries, z.regions, z.postal_codes, (select grams from weight) as weight,
      (select s.values from settings s where s.organization_id = ${org}::uuid and s."group" = 'general') as general_settings,
      (select s.values from settings s where s.organization_id = ${org}::uuid and s."group" = 'tax') as tax_settings
    from shipping_methods m
    join shipping_zones z on z.id = m.zone_id and z.organization_id = ${org}::uuid
    left join warehouses w on w.id = m.warehouse_id and w.organization_id = ${org}::uuid
    where m.organization_id = ${org}::uuid and m.is_active`;
  const inZone = rows.filter((m) => zoneContains({ countries: m.countries, regions: m.regions, postalCodes: m.postal_codes }, request.destination));
  if (!inZone.length) return { options: [], covered: false };
  const subtotal = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const weightGrams = Number(inZone[0]!.weight);
  const itemCount = quantities.reduce((a, b) => a + b, 0);
  const eligible = inZone.flatMap((m) => {
    if (m.min_subtotal !== null && subtotal < Number(m.min_subtotal)) return [];
    if (m.max_subtotal !== null && subtotal > Number(m.max_subtotal)) return [];
    if (m.max_weight_grams !== null && weightGrams > m.max_weight_grams) return [];
    if (m.customer_group_ids.length && !m.customer_group_ids.some((g) => request.groups.includes(g))) return [];
    if (m.kind === 'pickup' && !m.warehouse_id) return [];
    if (request.onlyMethodId && m.id !== request.onlyMethodId) return [];
    const amount = priceWith(m.calculator, { currency: request.currency, subtotal, weightGrams, itemCount });
    return amount === null ? [] : [{ m, amount }];
  });
  const rates = new Map<string | null, { taxClassId: string | null; rateBps: number }>();
  const destination = { countryCode: request.destination.country, region: request.destination.state ?? null, postalCode: request.destination.postalCode ?? null };
  for (const classId of new Set(eligible.map((e) => e.m.tax_class_id))) rates.set(classId, await resolveClassRate(ctx, classId, destination));
  const mode = request.tax ?? taxModeOf(inZone[0]!, request.groups);
  const taxOf = (amount: number, rateBps: number) => (mode.exempt ? 0 : mode.pricesIncludeTax ? taxIncluded(amount, rateBps) : taxOn(amount, rateBps));
  // What the shopper pays for the option: the listed amount when it includes tax.
  const pays = (o: { amount: number; taxTotal: number }) => (mode.pricesIncludeTax ? o.amount : o.amount + o.taxTotal);
  const options = eligible
    .map(({ m, amount }) => {
      const rate = rates.get(m.tax_class_id)!;
      return {
        methodId: m.id,
        code: m.code,
        name: m.name,
        kind: m.kind as MethodKind,
        currency: request.currency,
        amount,
        taxClassId: rate.taxClassId,
        taxRateBps: rate.rateBps,
        taxTotal: taxOf(amount, rate.rateBps),
        minDays: m.min_days,
        maxDays: m.max_days,
        pickupLocation: m.warehouse_id ? { warehouseId: m.warehouse_id, name: m.warehouse_name ?? '', address: m.warehouse_address } : null,
      };
    })
    .sort((a, b) => pays(a) - pays(b) || a.name.localeCompare(b.name) || a.code.localeCompare(b.code));
  return { options, covered: true };
}

/** The tax mode of the settings read with the methods, as checkout's tax context decides it. */
function taxModeOf(row: MethodRow, groups: readonly string[]): QuoteTax {
  const exemptIds = row.tax_settings?.exemptCustomerGroupIds;
  const exemptGroups = new Set(Array.isArray(exemptIds) ? exemptIds.filter((g): g is string => typeof g === 'string') : []);
  return { pricesIncludeTax: row.general_settings?.pricesIncludeTax === true, exempt: groups.some((g) => exemptGroups.has(g)) };
}
