// Ids typed as what they hold (issue 23, "UUID for every id"): every id-like field and argument
// (`id`, `...Id`, `...Ids`, `idOr...`) of schema.graphql and schema.plugins.graphql is UUID,
// except those listed below with the reason they stay String. A new String id fails here until it
// is typed UUID or listed with why. A malformed UUID is 422 VALIDATION_FAILED naming the field
// over REST, and the same code with the field in extensions.details over GraphQL.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, getNamedType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema, type GraphQLType } from 'graphql';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { startTestApp, type TestApp } from '../support/app.js';

const ACTOR = 'an actor id: a better-auth user or API key id (text columns), or system; not guaranteed a UUID';
const ORDER_OR_NUMBER = 'takes an order UUID or its number (ORD-YYYY-NNNNNN)';
const GROUP = 'customer group keys are names the store chooses (no table, no UUIDs)';
const REMOTE = "another system's id (connected store, payment provider, Stripe, channel)";
const REGISTER = 'a POS register is named by the store (free text up to 100 characters), not a row';

/** The String id-like elements that stay String, grouped by why. */
const STRING_IDS: Record<string, readonly string[]> = {
  [ACTOR]: [
    'AuditEntry.actorId',
    'AuditEntry.apiKeyId',
    'InventoryMovement.actorId',
    'OrderFulfillment.createdById',
    'OrderNote.authorId',
    'OrderRefund.operatorId',
    'OrderRefund.undoneById',
    'OrderRefundCap.operatorId',
    'OrderTimelineActor.id',
    'Query.auditEntityHistory(actorId)',
    'Query.auditEntries(actorId)',
    'MarketplaceVendor.userId',
    'Mutation.marketplaceVendorCreate(userId)',
    'Mutation.marketplaceVendorUpdate(userId)',
    'Mutation.posOverrideCreate(managerId)',
    'Mutation.posPinLogin(operatorId)',
    'Mutation.posPinSet(operatorId)',
    'PosOverride.managerId',
    'PosPinSetResult.operatorId',
    'PosShift.apiKeyId',
    'PosShift.operatorId',
    'GiftCardEntry.actorId',
  ],
  'a store-credit move names what caused it (an order, a refund, a return, an edit...), whose id the calling module chooses': ['StoreCreditEntry.sourceId'],
  'an audited entity is a UUID for most types but a name for some (a settings group, a module)': [
    'AuditEntry.entityId',
    'Query.auditEntityHistory(entityId)',
    'Query.auditEntries(entityId)',
  ],
  'a request id is any sane x-request-id the caller sent, or ours': ['AuditEntry.requestId'],
  [ORDER_OR_NUMBER]: [
    'Query.order(idOrNumber)',
    'Query.meOrder(idOrNumber)',
    'Query.meOrderTracking(idOrNumber)',
    'Query.meOrderDownloads(orderId)',
    'Mutation.meOrderReorder(orderId)',
    'Mutation.posExchangeCreate(orderId)',
    'Mutation.orderFulfillmentCreate(id)',
    'Mutation.orderPickedUp(id)',
    'Mutation.orderReadyForPickup(id)',
    'Mutation.orderInvoiceEmail(id)',
    'Mutation.orderNoteCreate(id)',
    'Mutation.orderNoteDelete(id)',
    'Mutation.orderRefundCreate(id)',
    'Mutation.orderRefundUndo(id)',
    'Mutation.orderStatusUpdate(id)',
    // issue 26: capture, void and refund retry take the order's UUID or number like the other order mutations.
    'Mutation.orderCapture(id)',
    'Mutation.orderVoid(id)',
    'Mutation.orderRefundRetry(id)',
    'Query.orderFulfillments(id)',
    'Query.orderInvoiceHtml(id)',
    'Query.orderInvoicePdf(id)',
    'Query.orderNotes(id)',
    'Query.orderReceiptHtml(id)',
    'Query.orderRefunds(id)',
    'Query.orderTimeline(id)',
    'Mutation.orderEditCreate(id)',
    'Mutation.orderEditConfirm(id)',
    'Mutation.orderEditCancel(id)',
    'Query.orderEdits(id)',
  ],
  'takes an entity UUID or its slug': ['Query.catalogEntity(idOrSlug)'],
  'REST sends a comma-separated list in one query parameter (each item is checked as a UUID, 422 entityIds.<n>)': ['Query.inventoryAvailability(entityIds)'],
  [GROUP]: [
    'CatalogEntity.price(customerGroupIds)',
    'CatalogVariant.price(customerGroupIds)',
    'Customer.customerGroupIds',
    'CustomerProfile.customerGroupIds',
    'Mutation.checkout(customerGroupIds)',
    'Mutation.customerUpdate(customerGroupIds)',
    'Mutation.priceCreate(customerGroupId)',
    'Mutation.priceModifierCreate(customerGroupId)',
    'Mutation.promotionCreate(customerGroupIds)',
    'Mutation.promotionUpdate(customerGroupIds)',
    'Order.customerGroupIds',
    'Price.customerGroupId',
    'PriceModifier.customerGroupId',
    'Promotion.customerGroupIds',
    'Query.priceModifiers(customerGroupId)',
    'Query.prices(customerGroupId)',
    'Query.promotionValidation(customerGroupIds)',
    'Query.resolvedPrice(customerGroupIds)',
    'ResolvedPrice.customerGroupId',
    'Mutation.shippingMethodCreate(customerGroupIds)',
    'Mutation.shippingMethodUpdate(customerGroupIds)',
    'ShippingMethod.customerGroupIds',
    'SettingsTax.exemptCustomerGroupIds',
  ],
  [REMOTE]: [
    'CatalogCustomField.sourceStoreId',
    'CatalogCustomFieldProposal.sourceStoreId',
    'CatalogEntity.sourceStoreId',
    'CatalogFieldOwnership.storeId',
    'Mutation.catalogCustomFieldPropose(sourceStoreId)',
    'Mutation.catalogEntityCreate(sourceStoreId)',
    'Mutation.catalogEntityFieldOwnershipSet(storeId)',
    'Mutation.catalogEntityUpdate(sourceStoreId)',
    'Query.catalogEntityFieldOwnership(storeId)',
    'Mutation.checkout(paymentMethodId)',
    'Mutation.posExchangeCreate(paymentMethodId)',
    'Mutation.orderReturnExchange(paymentMethodId)',
    'Order.paymentIntentId',
    'Payment.intentId',
    'Mutation.draftOrderComplete(paymentMethodId)',
    'Mutation.draftOrderLinkCheckout(paymentMethodId)',
    'OrderPaymentEvent.eventId',
    'OrderRefund.providerRefundId',
    'PaymentWebhookReceipt.eventId',
    'OrderInvoiceEmail.messageId',
    'MarketplacePayout.externalId',
    'MarketplaceVendor.stripeAccountId',
    'Mutation.marketplaceVendorCreate(stripeAccountId)',
    'Mutation.marketplaceVendorUpdate(stripeAccountId)',
    'ChannelOrderExport.remoteOrderId',
    'ChannelOrderPush.remoteOrderId',
    'Mutation.channelStoreImport(remoteIds)',
    'Mutation.channelStoreReconcile(remoteIds)',
  ],
  [REGISTER]: [
    'Mutation.posExchangeCreate(registerId)',
    'Mutation.posOverrideCreate(registerId)',
    'Mutation.posPinLogin(registerId)',
    'Mutation.posReturnCreate(registerId)',
    'PosExchange.registerId',
    'PosOverride.registerId',
    'PosReturn.registerId',
    'PosShift.registerId',
  ],
  'a tax or VAT registration number, not a row id': ['SettingsBranding.taxId'],
};

const ID_LIKE = /^id$|Id$|Ids$|^idOr/;

function load(file: string): GraphQLSchema {
  return buildSchema(fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8'));
}

/** Every id-like field and argument whose named type is String or ID. */
function stringIds(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  const isString = (type: GraphQLType) => {
    const name = getNamedType(type)?.name;
    return name === 'String' || name === 'ID';
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) continue;
    for (const field of Object.values(type.getFields())) {
      if (ID_LIKE.test(field.name) && isString(field.type)) found.push(`${type.name}.${field.name}`);
      for (const arg of 'args' in field ? field.args : []) if (ID_LIKE.test(arg.name) && isString(arg.type)) found.push(`${type.name}.${field.name}(${arg.name})`);
    }
  }
  return found.sort();
}

const allowed = Object.values(STRING_IDS).flat();

describe('id types', () => {
  it('types every id UUID but the listed ones, each with its reason', () => {
    expect(new Set(allowed).size, 'listed twice').toBe(allowed.length);
    // schema.plugins.graphql is the core schema plus every shipped plugin: the list is exactly its String ids.
    const withPlugins = stringIds(load('schema.plugins.graphql'));
    expect(
      withPlugins.filter((name) => !allowed.includes(name)),
      'String ids without a reason: type them UUID, or list them here with why',
    ).toEqual([]);
    expect(
      allowed.filter((name) => !withPlugins.includes(name)),
      'listed but no longer String: remove from the list',
    ).toEqual([]);
    const core = stringIds(load('schema.graphql'));
    expect(core.filter((name) => !allowed.includes(name))).toEqual([]);
    console.log(`String id-like fields and arguments: ${core.length} in schema.graphql, ${withPlugins.length} with plugins`);
  });

  it('types customer ids, webhook order ids and consumed overrides UUID', () => {
    const core = load('schema.graphql');
    const plugins = load('schema.plugins.graphql');
    const field = (schema: GraphQLSchema, type: string, name: string) => {
      const found = schema.getType(type);
      if (!isObjectType(found)) throw new Error(`${type} missing`);
      return String(found.getFields()[name]!.type);
    };
    const arg = (schema: GraphQLSchema, root: 'Query' | 'Mutation', name: string, argName: string) => {
      const found = schema.getType(root);
      if (!isObjectType(found)) throw new Error(`${root} missing`);
      return String(found.getFields()[name]!.args.find((a) => a.name === argName)!.type);
    };
    expect(field(core, 'Cart', 'customerId')).toBe('UUID');
    expect(field(core, 'Order', 'customerId')).toBe('UUID');
    expect(field(core, 'PaymentWebhookReceipt', 'orderId')).toBe('UUID');
    expect(arg(core, 'Mutation', 'cartCreate', 'customerId')).toBe('UUID');
    expect(arg(core, 'Mutation', 'checkout', 'customerId')).toBe('UUID');
    expect(arg(core, 'Query', 'promotionValidation', 'customerId')).toBe('UUID');
    for (const type of ['MarketplaceSubOrder', 'MarketplaceDispute', 'MarketplaceReturn']) expect(field(plugins, type, 'customerId'), type).toBe('UUID');
    expect(field(plugins, 'PosExchange', 'overrideIds')).toBe('[UUID!]!');
  });
});

describe('a malformed UUID id', () => {
  let t: TestApp;
  let admin: string;
  let staff: { token: string };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.apiKey('admin');
    staff = await t.signIn('staff');
  }, 120_000);
  afterAll(() => t?.close());

  it('is 422 naming the field over REST', async () => {
    const cart = await t.request('/api/carts', { bearer: staff.token, body: { currency: 'USD', customerId: 'bob' } });
    expect(cart.status, cart.text).toBe(422);
    expect(cart.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'customerId' })] });
    const validation = await t.request('/api/promotions/validate', {
      apiKey: admin,
      body: { code: 'NOPE', currency: 'USD', subtotal: 1000, lineItems: [], customerId: 'cust-1' },
    });
    expect(validation.status, validation.text).toBe(422);
    expect(validation.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'customerId' })] });
  });

  it('is VALIDATION_FAILED with the field in details over GraphQL', async () => {
    const res = await t.graphql(`mutation($customerId: UUID) { cartCreate(currency: "USD", customerId: $customerId) { id } }`, { customerId: 'bob' }, { bearer: staff.token });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'customerId' })] });
  });
});
