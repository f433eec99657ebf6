// The shipping options of a cart: every active method whose zone contains the destination, that
// the cart is eligible for (subtotal range, max weight, customer groups) and that can price it,
// with its price, tax and estimate, cheapest first. Digital goods (entity type digitalDownload)
// ship nothing: a cart of only those has no options and needs no method.
// Each option's tax follows checkout's totals (checkout/totals.ts), so the option a shopper picks
// is what the order's shipping line then says: added on top (exclusive), extracted from the listed
// gross amount (settings general.pricesIncludeTax), or zero for an exempt customer group
// (settings tax.exemptCustomerGroupIds).
// Cost: one statement for the methods, their zones and warehouses, the cart's weight and the tax
// settings, plus one per distinct tax class of the eligible methods (tax/resolver.ts
// resolveClassRate). A `carrier` method adds one call to its provider per cart and request within
// the cache's TTL (carrier/price.ts); the parcel (weight, dimensions) and the store's address
// come with the same statement.
import type { ServiceContext } from '../../db/transaction.js';
import { taxIncluded } from '../checkout/totals.js';
import { taxOn } from '../orders/money.js';
import { DIGITAL_ENTITY_TYPES } from '../customers/digital.js';
import { isGiftCardType } from '../gift-cards/product.js';
import { resolveClassRate } from '../tax/resolver.js';
import { priceWith, type Calculator } from './calculators.js';
import { priceWithCarrier, type CarrierContext } from './carrier/price.js';
import type { CarrierAddress } from './carrier/provider.js';
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
  /** Where `carrier` methods get their rates; without it they price with their fallback. */
  carrier?: CarrierContext | null;
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
  length_mm: number;
  width_mm: number;
  height_mm: bigint | number;
  origin: Record<string, unknown> | null;
}

export function shippableLines<L extends { entityType: string }>(lines: readonly L[]): L[] {
  // Downloads and gift cards (emailed) are never shipped.
  return lines.filter((l) => !DIGITAL_ENTITY_TYPES.includes(l.entityType) && !isGiftCardType(l.entityType));
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
      select coalesce(sum(coalesce(v.weight_grams, 0)::bigint * q.qty), 0) as grams,
        coalesce(max(v.length_mm), 0)::int as length_mm, coalesce(max(v.width_mm), 0)::int as width_mm,
        coalesce(sum(coalesce(v.height_mm, 0)::bigint * q.qty), 0) as height_mm
      from unnest(${variantIds}::uuid[], ${quantities}::int[]) as q(variant_id, qty)
      left join catalog_variants v on v.id = q.variant_id and v.organization_id = ${org}::uuid
    )
    select m.id, m.code, m.name, m.kind, m.tax_class_id, m.warehouse_id, w.name as warehouse_name, w.address as warehouse_address,
      m.min_days, m.max_days, m.calculator, m.min_subtotal, m.max_subtotal, m.max_weight_grams, m.customer_group_ids,
      z.countries, z.regions, z.postal_codes, wt.grams as weight, wt.length_mm, wt.width_mm, wt.height_mm,
      (select s."values"->'address' from settings s where s.organization_id = ${org}::uuid and s."group" = 'branding') as origin,
      (select s.values from settings s where s.organization_id = ${org}::uuid and s."group" = 'general') as general_settings,
      (select s.values from settings s where s.organization_id = ${org}::uuid and s."group" = 'tax') as tax_settings
    from weight wt cross join shipping_methods m
    join shipping_zones z on z.id = m.zone_id and z.organization_id = ${org}::uuid
    left join warehouses w on w.id = m.warehouse_id and w.organization_id = ${org}::uuid
    where m.organization_id = ${org}::uuid and m.is_active`;
  const inZone = rows.filter((m) => zoneContains({ countries: m.countries, regions: m.regions, postalCodes: m.postal_codes }, request.destination));
  if (!inZone.length) return { options: [], covered: false };
  const subtotal = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const weightGrams = Number(inZone[0]!.weight);
  const itemCount = quantities.reduce((a, b) => a + b, 0);
  const calcInput = { currency: request.currency, subtotal, weightGrams, itemCount };
  const priced = await Promise.all(
    inZone.map(async (m) => {
      if (m.min_subtotal !== null && subtotal < Number(m.min_subtotal)) return null;
      if (m.max_subtotal !== null && subtotal > Number(m.max_subtotal)) return null;
      if (m.max_weight_grams !== null && weightGrams > m.max_weight_grams) return null;
      if (m.customer_group_ids.length && !m.customer_group_ids.some((g) => request.groups.includes(g))) return null;
      if (m.kind === 'pickup' && !m.warehouse_id) return null;
      if (request.onlyMethodId && m.id !== request.onlyMethodId) return null;
      if (m.calculator.kind !== 'carrier') {
        const amount = priceWith(m.calculator, calcInput);
        return amount === null ? null : { m, amount, estimateDays: null };
      }
      const price = await priceWithCarrier(request.carrier ?? null, m.calculator, carrierRequest(m, request), calcInput);
      return price && { m, amount: price.amount, estimateDays: price.estimateDays };
    }),
  );
  const eligible = priced.filter((p) => p !== null);
  const rates = new Map<string | null, { taxClassId: string | null; rateBps: number }>();
  const destination = { countryCode: request.destination.country, region: request.destination.state ?? null, postalCode: request.destination.postalCode ?? null };
  for (const classId of new Set(eligible.map((e) => e.m.tax_class_id))) rates.set(classId, await resolveClassRate(ctx, classId, destination));
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const mode = request.tax ?? taxModeOf(inZone[0]!, request.groups);
  const taxOf = (amount: number, rateBps: number) => (mode.exempt ? 0 : mode.pricesIncludeTax ? taxIncluded(amount, rateBps) : taxOn(amount, rateBps));
  // What the shopper pays for the option: the listed amount when it includes tax.
  const pays = (o: { amount: number; taxTotal: number }) => (mode.pricesIncludeTax ? o.amount : o.amount + o.taxTotal);
  const options = eligible
    .map(({ m, amount, estimateDays }) => {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
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
        // A carrier's own transit estimate wins over the method's configured one.
        minDays: estimateDays ?? m.min_days,
        maxDays: estimateDays ?? m.max_days,
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

function addressOf(value: Record<string, unknown> | null): CarrierAddress | null {
  if (!value || typeof value.country !== 'string') return null;
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : null);
  return { line1: text('line1'), city: text('city'), state: text('state'), postalCode: text('postalCode'), country: value.country };
}

/**
 * The carrier's request: from the store's address (settings branding.address; the destination's
 * country when it has none), to the destination as quoted (country, state, postal code — the same
 * at checkout as in the options, so checkout reuses the cached rate the shopper saw), one parcel
 * of the cart's weight, the largest length and width and the stacked heights.
 */
function carrierRequest(m: MethodRow, request: QuoteRequest) {
  const to: CarrierAddress = { country: request.destination.country, state: request.destination.state ?? null, postalCode: request.destination.postalCode ?? null };
  return {
    from: addressOf(m.origin) ?? { country: request.destination.country },
    to,
    parcel: { weightGrams: Number(m.weight), lengthMm: m.length_mm, widthMm: m.width_mm, heightMm: Number(m.height_mm) },
    currency: request.currency,
  };
}
