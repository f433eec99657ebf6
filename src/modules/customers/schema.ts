// Customer portal (/me/*) and staff customer operations.
import { z } from 'zod';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { pageInput } from '../../graphql/zod-args.js';
import { OrderRef } from '../orders/types.js';
import { customerGroupIdSchema } from '../pricing/shared.js';
import { ORDER_STATUSES } from '../orders/status.js';
import { reorder } from './reorder.js';
import { myOrderDownloads } from './downloads.js';
import { addAddress, deleteAddress, getCustomer, getProfile, listAddresses, listCustomers, myOrder, myOrderTracking, myOrders, updateCustomer, updateProfile } from './service.js';
import { CustomerAddressRef, CustomerProfileRef, CustomerRef, OrderDownloadsRef, OrderTrackingRef, ReorderResultRef } from './types.js';

const SESSION_NOTE = 'Needs a signed-in customer session (cookie or its bearer token): 401 without one, 403 for an API key.';
const orderId = z.string().min(1).max(64).describe('Order UUID or number (ORD-YYYY-NNNNNN)');
// The /me routes answer for a signed-in customer's own session only (not API keys, not staff).
const READ_SELF = { permission: 'customers:read:self', customerSession: true } as const;
const READ_OWN_ORDERS = { permission: 'orders:read:own', customerSession: true } as const;
const UPDATE_SELF = { permission: 'customers:update:self', customerSession: true } as const;

defineOperation({
  name: 'meProfile',
  kind: 'query',
  summary: "The signed-in customer's profile",
  description: SESSION_NOTE,
  rest: { method: 'GET', path: '/me/profile' },
  access: READ_SELF,
  input: {},
  output: CustomerProfileRef,
  resolve: (ctx) => getProfile(ctx),
});

defineOperation({
  name: 'meProfileUpdate',
  kind: 'mutation',
  summary: "Update the signed-in customer's profile",
  description: `name, phone (null clears), marketingConsent. The email changes through better-auth's change-email flow (POST /api/auth/change-email), which verifies the new address. Emits customers.update. ${SESSION_NOTE}`,
  rest: { method: 'PATCH', path: '/me/profile' },
  access: UPDATE_SELF,
  input: {
    name: z.string().trim().min(1).max(200).optional(),
    phone: z
      .string()
      .trim()
      .min(3)
      .max(40)
      .regex(/^[+0-9 ()./-]+$/, 'digits, spaces and + ( ) . / - only')
      .nullable()
      .optional(),
    marketingConsent: z.boolean().optional(),
  },
  output: CustomerProfileRef,
  resolve: (ctx, input) => updateProfile(ctx, input),
  audit: { event: 'customers.update', entityType: 'customer', entityId: (_input, c) => c.id },
});

defineOperation({
  name: 'meAddresses',
  kind: 'query',
  summary: "The signed-in customer's saved addresses, oldest first",
  description: SESSION_NOTE,
  rest: { method: 'GET', path: '/me/addresses' },
  access: READ_SELF,
  input: {},
  output: [CustomerAddressRef],
  resolve: (ctx) => listAddresses(ctx),
});

defineOperation({
  name: 'meAddressCreate',
  kind: 'mutation',
  summary: 'Save an address',
  description: `The first address becomes the default shipping and billing address; isDefaultShipping / isDefaultBilling move the default to this one. At most 50 addresses. ${SESSION_NOTE}`,
  rest: { method: 'POST', path: '/me/addresses', status: 201 },
  access: UPDATE_SELF,
  input: {
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    company: z.string().trim().min(1).max(200).optional(),
    line1: z.string().trim().min(1).max(200),
    line2: z.string().trim().min(1).max(200).optional(),
    city: z.string().trim().min(1).max(100),
    state: z.string().trim().min(1).max(100).optional(),
    postalCode: z.string().trim().min(1).max(20),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2 code, e.g. US')
      .describe('ISO 3166-1 alpha-2'),
    phone: z.string().trim().min(3).max(40).optional(),
    isDefaultShipping: z.boolean().default(false),
    isDefaultBilling: z.boolean().default(false),
  },
  output: CustomerAddressRef,
  resolve: (ctx, input) => addAddress(ctx, input),
  audit: { event: 'customers.addressCreate', entityType: 'customer', entityId: (_input, a) => a.id },
});

defineOperation({
  name: 'meAddressDelete',
  kind: 'mutation',
  summary: 'Delete a saved address; answers the deleted address',
  description: `Another customer's address id is 404. ${SESSION_NOTE}`,
  rest: { method: 'DELETE', path: '/me/addresses/:id' },
  access: UPDATE_SELF,
  input: { id: z.guid() },
  output: CustomerAddressRef,
  resolve: (ctx, input) => deleteAddress(ctx, input.id),
  audit: { event: 'customers.addressDelete', entityType: 'customer_address', entityId: (input) => input.id },
});

defineOperation({
  name: 'meOrders',
  kind: 'query',
  summary: "The signed-in customer's orders, newest first",
  description: SESSION_NOTE,
  rest: { method: 'GET', path: '/me/orders' },
  access: READ_OWN_ORDERS,
  input: { status: z.enum(ORDER_STATUSES).optional().describe(ORDER_STATUSES.join(', ')), ...pageInput(20, 100) },
  output: pageOf('Order', OrderRef),
  paginated: true,
  resolve: (ctx, input) => myOrders(ctx, input),
});

defineOperation({
  name: 'meOrder',
  kind: 'query',
  summary: 'One of my orders by UUID or number',
  description: `Another customer's order is 404. ${SESSION_NOTE}`,
  rest: { method: 'GET', path: '/me/orders/:id', pathArgs: { id: 'idOrNumber' } },
  access: READ_OWN_ORDERS,
  input: { idOrNumber: orderId },
  output: OrderRef,
  resolve: (ctx, input) => myOrder(ctx, input.idOrNumber),
});

defineOperation({
  name: 'meOrderTracking',
  kind: 'query',
  summary: 'Fulfillment tracking of one of my orders',
  description: `Fulfillments with carrier, tracking number and URL, and per line the shipments it went out in. ${SESSION_NOTE}`,
  rest: { method: 'GET', path: '/me/orders/:id/tracking', pathArgs: { id: 'idOrNumber' } },
  access: READ_OWN_ORDERS,
  input: { idOrNumber: orderId },
  output: OrderTrackingRef,
  resolve: (ctx, input) => myOrderTracking(ctx, input.idOrNumber),
});

defineOperation({
  name: 'meOrderDownloads',
  kind: 'query',
  summary: 'Download links of the digital items of one of my orders',
  description:
    'Lines sold as entity type digitalDownload, with the media attached to their entity (or variant) under role download, ' +
    'as signed URLs that expire after media.signedUrlTtlSeconds. Only for paid orders (paid, partially_refunded; lines refunded in full are left out): ' +
    `any other payment status — partially_paid included — is 403 with details.paymentStatus. Another customer's order is 404. ${SESSION_NOTE}`,
  rest: { method: 'GET', path: '/me/orders/:id/downloads', pathArgs: { id: 'orderId' } },
  access: READ_OWN_ORDERS,
  input: { orderId },
  output: OrderDownloadsRef,
  resolve: (ctx, input) => myOrderDownloads(ctx, input.orderId),
});

defineOperation({
  name: 'meOrderReorder',
  kind: 'mutation',
  summary: "A new cart filled from one of my orders at today's prices",
  description: `Lines that can no longer be sold are left out and listed in meta.skipped with the reason; the call still succeeds. ${SESSION_NOTE}`,
  rest: { method: 'POST', path: '/me/orders/:id/reorder', status: 201, pathArgs: { id: 'orderId' } },
  access: { permission: 'cart:create', customerSession: true },
  input: { orderId },
  output: ReorderResultRef,
  paginated: true,
  resolve: (ctx, input) => reorder(ctx, input.orderId),
  audit: false, // a shopper's own cart, like POST /carts: not a privileged change
});

defineOperation({
  name: 'customers',
  kind: 'query',
  summary: 'List customers, newest first, with orders count and lifetime value',
  rest: { method: 'GET', path: '/customers' },
  access: { permission: 'customers:read' },
  input: { search: z.string().trim().min(1).max(200).optional().describe('Part of the email or name'), ...pageInput(20, 100) },
  output: pageOf('Customer', CustomerRef),
  paginated: true,
  resolve: (ctx, input) => listCustomers(ctx, input),
});

defineOperation({
  name: 'customerUpdate',
  kind: 'mutation',
  summary: "Update a customer's name, phone or customer groups (staff)",
  description:
    "customerGroupIds replaces the customer's groups: they apply at checkout to prices, promotions, tax exemptions (settings tax.exemptCustomerGroupIds) and shipping eligibility, without the shopper sending them. The customer's own marketing consent and email are theirs to change (PATCH /me/profile). Emits customers.update.",
  rest: { method: 'PATCH', path: '/customers/:id' },
  access: { permission: 'customers:update' },
  input: {
    id: z.guid().describe('Customer UUID (the user id of their account)'),
    name: z.string().trim().min(1).max(200).optional(),
    phone: z
      .string()
      .trim()
      .min(3)
      .max(40)
      .regex(/^[+0-9 ()./-]+$/, 'digits, spaces and + ( ) . / - only')
      .nullable()
      .optional(),
    customerGroupIds: z
      .array(customerGroupIdSchema)
      .max(100)
      .optional()
      .describe('Customer group keys, the names the store uses in prices, promotions, tax exemptions and shipping methods; [] clears'),
  },
  output: CustomerRef,
  resolve: (ctx, input) => updateCustomer(ctx, input.id, input),
  audit: { event: 'customers.update', entityType: 'customer', entityId: (input) => input.id },
});

defineOperation({
  name: 'customer',
  kind: 'query',
  summary: 'One customer with orders count and lifetime value',
  rest: { method: 'GET', path: '/customers/:id' },
  access: { permission: 'customers:read' },
  input: { id: z.guid().describe('Customer UUID (the user id of their account)') },
  output: CustomerRef,
  resolve: (ctx, input) => getCustomer(ctx, input.id),
});
