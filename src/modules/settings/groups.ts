// The known settings groups and their fields. Known groups accept only their declared fields,
// so a typo (`refundDailycap`) is a 422 rather than a silently ignored key; any other group
// name accepts any JSON object.
import { z } from 'zod';
import { documentSettingsGroups } from '../../http/openapi-refine.js';

/** A settings group name: lowercase start, then letters, digits, `_` or `-`. */
export const GROUP_NAME = /^[a-z][a-zA-Z0-9_-]{0,63}$/;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

const text = (max: number) => z.string().max(max);

/** Field schemas per known group. A patch value of null deletes that key instead. */
export const KNOWN_GROUPS: Record<string, Record<string, z.ZodType>> = {
  general: {
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
    timezone: z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin'),
    locale: z.string().refine(isLocale, 'must be a BCP 47 locale such as en or en-US'),
    /** Further currencies the store sells in (the public store profile lists them after `currency`). */
    currencies: z.array(z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD')).max(50),
    /** Further locales the store offers (listed after `locale`). */
    locales: z.array(z.string().refine(isLocale, 'must be a BCP 47 locale such as en or en-US')).max(50),
    /** Listed prices (and shipping charges) contain tax: checkout extracts it instead of adding it. */
    pricesIncludeTax: z.boolean(),
  },
  tax: {
    /** Customer groups whose orders carry no tax (B2B reverse charge); the invoice says so. */
    exemptCustomerGroupIds: z.array(z.string().min(1).max(100)).max(100),
    /** The note printed on exempt orders' invoices (default "Reverse charge"). */
    exemptionNote: text(200),
  },
  branding: {
    storeName: text(200),
    legalName: text(200),
    email: z.email(),
    phone: text(50),
    website: z.url(),
    logoUrl: z.url(),
    taxId: text(100),
    address: z
      .object({
        line1: text(200),
        line2: text(200).optional(),
        city: text(100),
        state: text(100).optional(),
        postalCode: text(20),
        country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'),
      })
      .strict(),
    receiptFooter: text(1000),
    primaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour such as #1a2b3c'),
  },
  payments: {
    /** automatic (at checkout), manual (POST /api/orders/:id/capture) or on_fulfilment (the first fulfilment captures the rest). */
    capture: z.enum(['automatic', 'manual', 'on_fulfilment']),
    /** Minutes a payment waiting for the shopper's action (3-D Secure) keeps its order's stock; then the order is cancelled. */
    actionExpiryMinutes: z.number().int().min(1).max(1440),
  },
  policies: {
    /** Per operator per day, minor units. */
    refundDailyCap: z.number().int().nonnegative(),
    refundUndoWindowMinutes: z.number().int().nonnegative(),
    /** Days after an order's last fulfillment in which its customer may ask for a return (staff are not bound). */
    returnWindowDays: z.number().int().nonnegative().max(3650),
    /** Shopper-facing policy pages, shown in the public store profile (GET /store). */
    termsUrl: z.url(),
    privacyUrl: z.url(),
    returnsUrl: z.url(),
  },
};
// The OpenAPI document types these groups' paths (http/openapi-refine.ts).
documentSettingsGroups(KNOWN_GROUPS);

/** Payments (issue 26): when authorizations are captured, how long a 3-D Secure action may wait. */
export const PAYMENT_SETTING_DEFAULTS = { capture: 'automatic', actionExpiryMinutes: 30 } as const;

export const POLICY_DEFAULTS = { refundUndoWindowMinutes: 15, returnWindowDays: 30 } as const;

/** A patch schema for a known group: every field optional, null allowed (it deletes). */
export function patchSchema(group: string): z.ZodType<Record<string, unknown>> | null {
  const fields = KNOWN_GROUPS[group];
  if (!fields) return null;
  return z.object(Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.nullable().optional()]))).strict();
}
