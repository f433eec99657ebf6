// The known settings groups as typed objects for GraphQL clients (`storeSettings`). The REST
// routes and `settings` / `settingsGroup` keep answering JSON objects: groups are open-ended
// (any name holds any JSON object), and those routes are the spec's contract.
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { AddressRef, type AddressView } from '../../graphql/address.js';
import { getAllSettings } from './service.js';
import { POLICY_DEFAULTS } from './groups.js';

type Group = Record<string, unknown>;
const str = (key: string) => (g: Group) => (typeof g[key] === 'string' ? (g[key] as string) : null);
const int = (key: string) => (g: Group) => (typeof g[key] === 'number' ? (g[key] as number) : null);

const GeneralRef = builder.objectRef<Group>('SettingsGeneral').implement({
  description: 'Settings group `general`.',
  fields: (t) => ({
    currency: t.string({ nullable: true, description: 'ISO 4217 code of the store currency', resolve: str('currency') }),
    timezone: t.string({ nullable: true, description: 'IANA time zone: calendar days (refund caps, order numbers) follow it', resolve: str('timezone') }),
    locale: t.string({ nullable: true, description: 'BCP 47 locale', resolve: str('locale') }),
    pricesIncludeTax: t.boolean({
      description:
        "Listed prices and shipping charges contain tax (default false): checkout extracts it per line (half to even) and the shopper pays the listed price whatever the destination's rate",
      resolve: (g) => g.pricesIncludeTax === true,
    }),
  }),
});

const BrandingRef = builder.objectRef<Group>('SettingsBranding').implement({
  description: 'Settings group `branding` (invoices, receipts, mails).',
  fields: (t) => ({
    storeName: t.string({ nullable: true, resolve: str('storeName') }),
    legalName: t.string({ nullable: true, resolve: str('legalName') }),
    email: t.string({ nullable: true, resolve: str('email') }),
    phone: t.string({ nullable: true, resolve: str('phone') }),
    website: t.string({ nullable: true, resolve: str('website') }),
    logoUrl: t.string({ nullable: true, resolve: str('logoUrl') }),
    taxId: t.string({ nullable: true, resolve: str('taxId') }),
    address: t.field({ type: AddressRef, nullable: true, resolve: (g) => (g.address && typeof g.address === 'object' ? (g.address as AddressView) : null) }),
    receiptFooter: t.string({ nullable: true, resolve: str('receiptFooter') }),
    primaryColor: t.string({ nullable: true, description: 'Hex colour such as #1a2b3c', resolve: str('primaryColor') }),
  }),
});

const PoliciesRef = builder.objectRef<Group>('SettingsPolicies').implement({
  description: 'Settings group `policies`.',
  fields: (t) => ({
    refundDailyCap: t.field({ type: 'MinorUnits', nullable: true, description: 'Refunds per operator per day, minor units; null: no cap', resolve: int('refundDailyCap') }),
    refundUndoWindowMinutes: t.int({ description: 'Minutes a refund can be undone (default 15)', resolve: (g) => int('refundUndoWindowMinutes')(g) ?? 15 }),
    returnWindowDays: t.int({
      description: "Days after an order's last fulfillment in which its customer may ask for a return (default 30; staff are not bound)",
      resolve: (g) => int('returnWindowDays')(g) ?? POLICY_DEFAULTS.returnWindowDays,
    }),
  }),
});

const ShippingRef = builder.objectRef<Group>('SettingsShipping').implement({
  description: 'Settings group `shipping`: the rule checkout applies.',
  fields: (t) => ({
    flatRate: t.field({ type: 'MinorUnits', description: 'Shipping per order, minor units (default 0)', resolve: (g) => int('flatRate')(g) ?? 0 }),
    freeOver: t.field({ type: 'MinorUnits', nullable: true, description: 'Subtotal from which shipping is free; null: never', resolve: int('freeOver') }),
  }),
});

const TaxRef = builder.objectRef<Group>('SettingsTax').implement({
  description: 'Settings group `tax`: exemptions.',
  fields: (t) => ({
    exemptCustomerGroupIds: t.stringList({
      description: "Customer groups whose orders carry no tax (B2B reverse charge); the groups come from the customer's profile",
      resolve: (g) => (Array.isArray(g.exemptCustomerGroupIds) ? (g.exemptCustomerGroupIds as string[]) : []),
    }),
    exemptionNote: t.string({
      description: 'Invoice note of exempt orders (default "Reverse charge")',
      resolve: (g) => (typeof g.exemptionNote === 'string' && g.exemptionNote ? g.exemptionNote : 'Reverse charge'),
    }),
  }),
});

const StoreSettingsRef = builder.objectRef<Record<string, Group>>('StoreSettings').implement({
  description: 'The known settings groups, typed. Other groups: `settings` / `settingsGroup`.',
  fields: (t) => ({
    general: t.field({ type: GeneralRef, resolve: (s) => s.general ?? {} }),
    branding: t.field({ type: BrandingRef, resolve: (s) => s.branding ?? {} }),
    policies: t.field({ type: PoliciesRef, resolve: (s) => s.policies ?? {} }),
    shipping: t.field({ type: ShippingRef, resolve: (s) => s.shipping ?? {} }),
    tax: t.field({ type: TaxRef, description: 'Group `tax`: exempt customer groups and their invoice note', resolve: (s) => s.tax ?? {} }),
  }),
});

defineOperation({
  name: 'storeSettings',
  kind: 'query',
  summary: 'The known settings groups (general, branding, policies, shipping, tax) as typed objects',
  description: 'GraphQL only: REST clients read GET /settings or GET /settings/:group.',
  access: { permission: 'settings:manage' },
  input: {},
  output: StoreSettingsRef,
  resolve: async (ctx) => (await getAllSettings(ctx)) as Record<string, Group>,
});
