// The public store profile: GET /api/store, GraphQL `store`. Readable by every catalog reader
// (storefront keys, customers, staff): a storefront needs the store currency for its first
// `price(currency:)`, and settings (settings:manage) are staff-only.
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { getStoreProfile, type StoreBranding, type StorePolicies, type StoreProfile } from './service.js';

const StoreBrandingRef = builder.objectRef<StoreBranding>('StoreBranding').implement({
  description: 'The shopper-facing part of settings group `branding` (no tax id, legal name or receipt footer).',
  fields: (t) => ({
    logoUrl: t.exposeString('logoUrl', { nullable: true, description: 'Logo image URL' }),
    primaryColor: t.exposeString('primaryColor', { nullable: true, description: 'Hex colour such as #1a2b3c' }),
    website: t.exposeString('website', { nullable: true, description: "The store's website" }),
    email: t.exposeString('email', { nullable: true, description: 'Contact email' }),
    phone: t.exposeString('phone', { nullable: true, description: 'Contact phone' }),
  }),
});

const StorePoliciesRef = builder.objectRef<StorePolicies>('StorePolicies').implement({
  description:
    'The shopper-facing policies: links (settings group `policies`) and the shipping rule checkout applies (group `shipping`). Refund caps and undo windows are staff-only.',
  fields: (t) => ({
    termsUrl: t.exposeString('termsUrl', { nullable: true, description: 'Terms of sale (policies.termsUrl)' }),
    privacyUrl: t.exposeString('privacyUrl', { nullable: true, description: 'Privacy policy (policies.privacyUrl)' }),
    returnsUrl: t.exposeString('returnsUrl', { nullable: true, description: 'Returns policy (policies.returnsUrl)' }),
    shippingFlatRate: t.expose('shippingFlatRate', { type: 'MinorUnits', description: 'Shipping per order, minor units of defaultCurrency (0 when unset)' }),
    freeShippingOver: t.expose('freeShippingOver', { type: 'MinorUnits', nullable: true, description: 'Subtotal from which shipping is free; null: never' }),
  }),
});

export const StoreRef = builder.objectRef<StoreProfile>('Store').implement({
  description: 'The public store profile: what a storefront needs before it shows a price.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'branding.storeName, else the organization name' }),
    defaultCurrency: t.exposeString('defaultCurrency', {
      description: 'ISO 4217 code of the store currency (general.currency; USD, as the seed sets it, until the store sets one): pass it to price(currency:) and POST /carts',
    }),
    currencies: t.exposeStringList('currencies', { description: 'Currencies the store sells in, defaultCurrency first (general.currencies)' }),
    defaultLocale: t.exposeString('defaultLocale', { description: 'BCP 47 locale (general.locale; en when unset)' }),
    locales: t.exposeStringList('locales', { description: 'Locales the store offers, defaultLocale first (general.locales)' }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone (general.timezone; UTC when unset)' }),
    branding: t.expose('branding', { type: StoreBrandingRef, description: 'Logo, colour and contact details' }),
    policies: t.expose('policies', { type: StorePoliciesRef, description: 'Policy links and the shipping rule' }),
  }),
});

defineOperation({
  name: 'store',
  kind: 'query',
  summary: 'The public store profile: name, currencies, locales, timezone, branding and policies',
  description: 'Readable with catalog:read (storefront keys, customers, staff), unlike settings (settings:manage).',
  rest: { method: 'GET', path: '/store' },
  access: { permission: 'catalog:read' },
  input: {},
  output: StoreRef,
  resolve: (ctx) => getStoreProfile(ctx),
});
