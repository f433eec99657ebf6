// The public store profile: what a storefront needs before its first price (the currency every
// `price(currency:)` takes), its locales, timezone and the shopper-facing part of branding and
// policies. Read from the settings groups in one statement; staff-only settings (refund caps,
// tax ids, receipt footers) are never part of it.
import type { RequestContext } from '../../context.js';

type Json = Record<string, unknown>;
type Ctx = Pick<RequestContext, 'db' | 'organization'>;

/** The store currency until general.currency is set (the seed's default). */
export const DEFAULT_CURRENCY = 'USD';

/** The settings groups the profile is built from. */
const PROFILE_GROUPS = ['general', 'branding', 'policies', 'shipping'] as const;

export interface StoreBranding {
  logoUrl: string | null;
  primaryColor: string | null;
  website: string | null;
  email: string | null;
  phone: string | null;
}

export interface StorePolicies {
  termsUrl: string | null;
  privacyUrl: string | null;
  returnsUrl: string | null;
  /** Shipping per order and the free-shipping threshold, minor units of defaultCurrency. */
  shippingFlatRate: number;
  freeShippingOver: number | null;
}

export interface StoreProfile {
  name: string;
  defaultCurrency: string;
  currencies: string[];
  defaultLocale: string;
  locales: string[];
  timezone: string;
  branding: StoreBranding;
  policies: StorePolicies;
}

const str = (group: Json, key: string): string | null => (typeof group[key] === 'string' ? (group[key] as string) : null);
const int = (group: Json, key: string): number | null => (typeof group[key] === 'number' ? (group[key] as number) : null);
const strings = (group: Json, key: string): string[] => (Array.isArray(group[key]) ? (group[key] as unknown[]).filter((v): v is string => typeof v === 'string') : []);

/** The default first, then the others in their declared order, each once. */
function withDefault(values: string[], first: string | null): string[] {
  return [...new Set([...(first ? [first] : []), ...values])];
}

export function storeProfileFrom(organizationName: string, groups: Record<string, Json>): StoreProfile {
  const general = groups.general ?? {};
  const branding = groups.branding ?? {};
  const policies = groups.policies ?? {};
  const shipping = groups.shipping ?? {};
  // Defaults when unset: USD as `commerce seed` sets it (src/seed.ts), so a storefront always has
  // a currency to ask prices in; en and UTC as the rest of the service assumes (orders/shared.ts).
  const defaultCurrency = str(general, 'currency') ?? DEFAULT_CURRENCY;
  const defaultLocale = str(general, 'locale') ?? 'en';
  return {
    name: str(branding, 'storeName') ?? organizationName,
    defaultCurrency,
    currencies: withDefault(strings(general, 'currencies'), defaultCurrency),
    defaultLocale,
    locales: withDefault(strings(general, 'locales'), defaultLocale),
    timezone: str(general, 'timezone') ?? 'UTC',
    branding: {
      logoUrl: str(branding, 'logoUrl'),
      primaryColor: str(branding, 'primaryColor'),
      website: str(branding, 'website'),
      email: str(branding, 'email'),
      phone: str(branding, 'phone'),
    },
    policies: {
      termsUrl: str(policies, 'termsUrl'),
      privacyUrl: str(policies, 'privacyUrl'),
      returnsUrl: str(policies, 'returnsUrl'),
      shippingFlatRate: int(shipping, 'flatRate') ?? 0,
      freeShippingOver: int(shipping, 'freeOver'),
    },
  };
}

export async function getStoreProfile(ctx: Ctx): Promise<StoreProfile> {
  const rows = await ctx.db.setting.findMany({
    where: { organizationId: ctx.organization.id, group: { in: [...PROFILE_GROUPS] } },
    select: { group: true, values: true },
  });
  return storeProfileFrom(ctx.organization.name, Object.fromEntries(rows.map((row) => [row.group, row.values as Json])));
}
