// Shipping price calculators: the typed configuration a method stores (JSON, validated here on
// the way in) and the pure function that prices a cart with it. Amounts are integer minor units.
//   flat         one amount per currency, per order
//   per_item     one amount per currency, times the number of items (quantities summed)
//   weight_table bands over the cart's weight in grams, in one currency
//   price_table  bands over the cart's subtotal, in one currency
//   free_over    free from a threshold per currency, else a nested (non-free_over) calculator
//   carrier      a carrier provider's live rate (carrier/price.ts), with a markup and a nested
//                fallback calculator used when the provider fails
// A calculator that cannot price a cart (no amount in its currency, beyond the last band) makes
// the method ineligible for that cart rather than free.
import { z } from 'zod';
import { money, withGraphqlInput } from '../../graphql/zod-args.js';
import { defineEnum } from '../../graphql/enums.js';

export const CALCULATOR_KINDS = ['flat', 'per_item', 'weight_table', 'price_table', 'free_over', 'carrier'] as const;
export const CARRIER_PROVIDERS = ['shippo'] as const;
export type CarrierProviderName = (typeof CARRIER_PROVIDERS)[number];
// Declared before the inputs are built, so the carrier input's `provider` reuses it (zod-args enumFor).
export const CarrierProviderEnum = defineEnum('ShippingCarrierProvider', CARRIER_PROVIDERS, 'A carrier provider that quotes live rates for a `carrier` calculator.', {
  shippo: 'Shippo (POST /shipments; SHIPPO_API_TOKEN, SHIPPO_API_URL)',
});
export type CalculatorKind = (typeof CALCULATOR_KINDS)[number];

export interface Amount {
  currency: string;
  amount: number;
}
/** `upTo` is inclusive; null on the last band means "and above". */
export interface Band {
  upTo: number | null;
  amount: number;
}
export type BaseCalculator =
  | { kind: 'flat'; amounts: Amount[] }
  | { kind: 'per_item'; amounts: Amount[] }
  | { kind: 'weight_table'; currency: string; bands: Band[] }
  | { kind: 'price_table'; currency: string; bands: Band[] };
export interface CarrierCalculator {
  kind: 'carrier';
  provider: CarrierProviderName;
  /** Service level codes offered (the cheapest of them is the price); empty = any. */
  serviceLevels: string[];
  /** Added to the carrier's rate, in basis points of it. */
  markupBps: number;
  fallback: BaseCalculator | null;
}
export type Calculator = BaseCalculator | { kind: 'free_over'; thresholds: Amount[]; otherwise: BaseCalculator } | CarrierCalculator;

/** What a calculator sees of a cart. */
export interface CalcInput {
  currency: string;
  /** Discount-free subtotal of the shippable lines, minor units. */
  subtotal: number;
  weightGrams: number;
  itemCount: number;
}

const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD');
const amount = withGraphqlInput(z.object({ currency, amount: money() }).strict().describe('An amount in one currency, minor units'), 'ShippingAmountInput');
const amounts = z
  .array(amount)
  .min(1)
  .max(50)
  .refine((list) => new Set(list.map((a) => a.currency)).size === list.length, 'each currency at most once')
  .describe('One amount per currency');
const band = withGraphqlInput(
  z
    .object({
      upTo: z.number().int().nonnegative().nullable().optional().describe('Inclusive upper bound (grams or minor units); omit on the last band for "and above"'),
      amount: money(),
    })
    .strict()
    .describe('A band of a table calculator'),
  'ShippingBandInput',
);
const bands = z
  .array(band)
  .min(1)
  .max(50)
  .superRefine((list, ctx) => {
    list.forEach((b, i) => {
      const bound = b.upTo ?? null;
      if (bound === null && i !== list.length - 1) ctx.addIssue({ code: 'custom', path: [i, 'upTo'], message: 'only the last band may be open-ended' });
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      const prev = i > 0 ? (list[i - 1]!.upTo ?? null) : null;
      if (bound !== null && prev !== null && bound <= prev) ctx.addIssue({ code: 'custom', path: [i, 'upTo'], message: 'bands must be in increasing order of upTo' });
    });
  })
  .describe('Bands in increasing order of upTo');

const amountsInput = withGraphqlInput(z.object({ amounts }).strict().describe('Amounts per currency'), 'ShippingAmountsInput');
const tableInput = withGraphqlInput(z.object({ currency, bands }).strict().describe('A table of bands in one currency'), 'ShippingTableInput');

const BASE_FIELDS = { flat: 'flat', perItem: 'per_item', weightTable: 'weight_table', priceTable: 'price_table' } as const;

function exactlyOne(fields: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const set = fields.filter((f) => value[f] !== undefined && value[f] !== null);
    if (set.length !== 1) ctx.addIssue({ code: 'custom', path: [], message: `set exactly one of ${fields.join(', ')} (got ${set.length ? set.join(', ') : 'none'})` });
  };
}

const baseShape = {
  flat: amountsInput.optional().describe('A flat amount per order'),
  perItem: amountsInput.optional().describe('An amount per item'),
  weightTable: tableInput.optional().describe('Bands over the cart weight in grams'),
  priceTable: tableInput.optional().describe('Bands over the cart subtotal in minor units'),
};
export const baseCalculatorInput = withGraphqlInput(
  z
    .object(baseShape)
    .strict()
    .superRefine(exactlyOne(Object.keys(BASE_FIELDS)))
    .describe('One of flat, perItem, weightTable, priceTable'),
  'ShippingBaseCalculatorInput',
);
const freeOverInput = withGraphqlInput(
  z
    .object({ thresholds: amounts.describe('Free when the subtotal reaches this, per currency'), otherwise: baseCalculatorInput })
    .strict()
    .describe('Free over a threshold, else the nested calculator'),
  'ShippingFreeOverInput',
);
const carrierInput = withGraphqlInput(
  z
    .object({
      provider: z.enum(CARRIER_PROVIDERS).describe('The carrier provider asked for rates (shippo)'),
      serviceLevels: z
        .array(z.string().min(1).max(100))
        .max(20)
        .optional()
        .describe('Service level codes to offer (Shippo servicelevel tokens such as usps_priority); the cheapest is the price. Omit for any'),
      markupBps: z.number().int().min(0).max(100_000).optional().describe("Added to the carrier's rate, in basis points of it (1000 = 10 %)"),
      fallback: baseCalculatorInput
        .nullable()
        .optional()
        .describe('Prices the cart when the carrier fails, times out or offers none of the levels; without one the method is not offered then'),
    })
    .strict()
    .describe('Live rates from a carrier provider'),
  'ShippingCarrierInput',
);
export const calculatorInput = withGraphqlInput(
  z
    .object({
      ...baseShape,
      freeOver: freeOverInput.optional().describe('Free over a threshold per currency, else a nested calculator'),
      carrier: carrierInput.optional().describe('Live rates from a carrier provider, with a fallback calculator'),
    })
    .strict()
    .superRefine(exactlyOne([...Object.keys(BASE_FIELDS), 'freeOver', 'carrier']))
    .describe('A price calculator: set exactly one of flat, perItem, weightTable, priceTable, freeOver, carrier'),
  'ShippingCalculatorInput',
);
export type CalculatorInput = z.infer<typeof calculatorInput>;

function toBase(input: z.infer<typeof baseCalculatorInput>): BaseCalculator {
  if (input.flat) return { kind: 'flat', amounts: input.flat.amounts };
  if (input.perItem) return { kind: 'per_item', amounts: input.perItem.amounts };
  if (input.weightTable)
    return { kind: 'weight_table', currency: input.weightTable.currency, bands: input.weightTable.bands.map((b) => ({ upTo: b.upTo ?? null, amount: b.amount })) };
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const table = input.priceTable!;
  return { kind: 'price_table', currency: table.currency, bands: table.bands.map((b) => ({ upTo: b.upTo ?? null, amount: b.amount })) };
}

/** The stored form of a validated input (a tagged union with `kind`). */
export function toCalculator(input: CalculatorInput): Calculator {
  if (input.freeOver) return { kind: 'free_over', thresholds: input.freeOver.thresholds, otherwise: toBase(input.freeOver.otherwise) };
  if (input.carrier) {
    const c = input.carrier;
    return {
      kind: 'carrier',
      provider: c.provider,
      serviceLevels: [...new Set(c.serviceLevels ?? [])],
      markupBps: c.markupBps ?? 0,
      fallback: c.fallback ? toBase(c.fallback) : null,
    };
  }
  return toBase(input);
}

function inBand(bands: Band[], value: number): number | null {
  const found = bands.find((b) => b.upTo === null || value <= b.upTo);
  return found ? found.amount : null;
}

/** The shipping price of a cart, or null when this calculator cannot price it (carrier: see carrier/price.ts). */
export function priceWith(calc: Exclude<Calculator, CarrierCalculator>, cart: CalcInput): number | null {
  switch (calc.kind) {
    case 'flat':
      return calc.amounts.find((a) => a.currency === cart.currency)?.amount ?? null;
    case 'per_item': {
      const each = calc.amounts.find((a) => a.currency === cart.currency)?.amount;
      return each === undefined ? null : each * cart.itemCount;
    }
    case 'weight_table':
      return calc.currency === cart.currency ? inBand(calc.bands, cart.weightGrams) : null;
    case 'price_table':
      return calc.currency === cart.currency ? inBand(calc.bands, cart.subtotal) : null;
    case 'free_over': {
      const threshold = calc.thresholds.find((a) => a.currency === cart.currency)?.amount;
      if (threshold !== undefined && cart.subtotal >= threshold) return 0;
      return priceWith(calc.otherwise, cart);
    }
  }
}
