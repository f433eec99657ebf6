// GraphQL output types of customers and the portal. REST bodies are the same objects.
import { builder } from '../../graphql/builder.js';
import { CartRef } from '../carts/schema.js';
import { OrderFulfillmentRef } from '../orders/types.js';
import type { ReorderResult, SkippedLine } from './reorder.js';
import type { TrackingView } from './service.js';
import type { CustomerAddressView, CustomerSummaryView, CustomerView } from './views.js';
import { LineFulfillmentStatusEnum, OrderStatusEnum, PaymentStatusEnum } from '../orders/types.js';
import type { DownloadLink, OrderDownloads } from './downloads.js';

export const CustomerAddressRef = builder.objectRef<CustomerAddressView>('CustomerAddress').implement({
  description: 'A saved address of a customer.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    company: t.exposeString('company', { nullable: true }),
    line1: t.exposeString('line1'),
    line2: t.exposeString('line2', { nullable: true }),
    city: t.exposeString('city'),
    state: t.exposeString('state', { nullable: true }),
    postalCode: t.exposeString('postalCode'),
    country: t.exposeString('country', { description: 'ISO 3166-1 alpha-2' }),
    phone: t.exposeString('phone', { nullable: true }),
    isDefaultShipping: t.exposeBoolean('isDefaultShipping'),
    isDefaultBilling: t.exposeBoolean('isDefaultBilling'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

function profileFields(t: any) {
  return {
    id: t.field({ type: 'UUID', description: "The customer's id (the same as the user id of their account)", resolve: (c: CustomerView) => c.id }),
    userId: t.field({ type: 'UUID', nullable: true, resolve: (c: CustomerView) => c.userId }),
    email: t.exposeString('email', { description: "Changed through better-auth's change-email flow (POST /api/auth/change-email), not here" }),
    name: t.exposeString('name'),
    phone: t.exposeString('phone', { nullable: true }),
    marketingConsent: t.exposeBoolean('marketingConsent'),
    customerGroupIds: t.exposeStringList('customerGroupIds'),
    defaultShippingAddress: t.field({ type: CustomerAddressRef, nullable: true, resolve: (c: CustomerView) => c.defaultShippingAddress }),
    defaultBillingAddress: t.field({ type: CustomerAddressRef, nullable: true, resolve: (c: CustomerView) => c.defaultBillingAddress }),
    createdAt: t.field({ type: 'DateTime', resolve: (c: CustomerView) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c: CustomerView) => c.updatedAt }),
  };
}

export const CustomerProfileRef = builder.objectRef<CustomerView>('CustomerProfile').implement({
  description: "The signed-in customer's own profile.",
  fields: (t) => profileFields(t),
});

export const CustomerRef = builder.objectRef<CustomerSummaryView>('Customer').implement({
  description: 'A customer as staff see it: the profile plus orders count and lifetime value.',
  fields: (t) => ({
    ...profileFields(t),
    ordersCount: t.exposeInt('ordersCount'),
    lifetimeValue: t.expose('lifetimeValue', { type: 'MinorUnits', description: 'Captured minus refunded over all orders, minor units' }),
    lastOrderAt: t.expose('lastOrderAt', { type: 'DateTime', nullable: true }),
  }),
});

const ShipmentRef = builder.objectRef<TrackingView['lines'][number]['shipments'][number]>('OrderLineShipment').implement({
  description: 'Units of one order line sent in one fulfillment.',
  fields: (t) => ({
    fulfillmentId: t.expose('fulfillmentId', { type: 'UUID' }),
    quantity: t.exposeInt('quantity'),
    carrier: t.exposeString('carrier', { nullable: true }),
    trackingNumber: t.exposeString('trackingNumber', { nullable: true }),
    trackingUrl: t.exposeString('trackingUrl', { nullable: true }),
  }),
});

const TrackingLineRef = builder.objectRef<TrackingView['lines'][number]>('OrderTrackingLine').implement({
  fields: (t) => ({
    lineItemId: t.expose('lineItemId', { type: 'UUID' }),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    quantity: t.exposeInt('quantity'),
    fulfilledQuantity: t.exposeInt('fulfilledQuantity'),
    fulfillmentStatus: t.field({ type: LineFulfillmentStatusEnum, resolve: (l) => l.fulfillmentStatus as never }),
    shipments: t.expose('shipments', { type: [ShipmentRef] }),
  }),
});

export const OrderTrackingRef = builder.objectRef<TrackingView>('OrderTracking').implement({
  description: "An order's fulfillments with carrier, tracking number and URL, and per line what was shipped in which.",
  fields: (t) => ({
    orderId: t.expose('orderId', { type: 'UUID' }),
    orderNumber: t.exposeString('orderNumber'),
    status: t.field({ type: OrderStatusEnum, resolve: (o) => o.status as never }),
    fulfillments: t.expose('fulfillments', { type: [OrderFulfillmentRef] }),
    lines: t.expose('lines', { type: [TrackingLineRef] }),
  }),
});

const SkippedLineRef = builder.objectRef<SkippedLine>('ReorderSkippedLine').implement({
  description: 'An order line that could not go into the new cart, and why.',
  fields: (t) => ({
    lineItemId: t.expose('lineItemId', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    quantity: t.exposeInt('quantity'),
    reason: t.exposeString('reason'),
  }),
});

const ReorderMetaRef = builder.objectRef<ReorderResult['meta']>('ReorderMeta').implement({
  fields: (t) => ({
    orderId: t.expose('orderId', { type: 'UUID' }),
    orderNumber: t.exposeString('orderNumber'),
    skipped: t.expose('skipped', { type: [SkippedLineRef] }),
  }),
});

export const ReorderResultRef = builder.objectRef<ReorderResult>('ReorderResult').implement({
  description: 'The new cart (data) and the lines left out (meta.skipped).',
  fields: (t) => ({
    data: t.expose('data', { type: CartRef }),
    meta: t.expose('meta', { type: ReorderMetaRef }),
  }),
});

const DownloadLinkRef = builder.objectRef<DownloadLink>('OrderDownloadLink').implement({
  description: 'A file bought with a digital order line: a signed URL that serves the bytes until expiresAt, no session needed.',
  fields: (t) => ({
    lineItemId: t.expose('lineItemId', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    mediaAssetId: t.expose('mediaAssetId', { type: 'UUID' }),
    title: t.exposeString('title', { description: "The order line's title" }),
    alt: t.exposeString('alt', { nullable: true, description: "The asset's alt text" }),
    mimeType: t.exposeString('mimeType', { description: 'Media type of the file, read from its bytes at upload (e.g. application/pdf)' }),
    size: t.exposeInt('size', { description: 'Bytes' }),
    url: t.exposeString('url', { description: 'Signed GET /api/media/:id/content URL; 403 once expired or altered' }),
    expiresAt: t.field({ type: 'DateTime', description: 'When the signed URL stops working; ask for the downloads again for a fresh one', resolve: (d) => new Date(d.expiresAt) }),
  }),
});

export const OrderDownloadsRef = builder.objectRef<OrderDownloads>('OrderDownloads').implement({
  description: 'Download links of the digital lines (entity type digitalDownload, media with role download) of a paid order.',
  fields: (t) => ({
    orderId: t.expose('orderId', { type: 'UUID' }),
    orderNumber: t.exposeString('orderNumber'),
    paymentStatus: t.field({
      type: PaymentStatusEnum,
      description: "The order's payment status (downloads are offered once it is paid)",
      resolve: (v) => v.paymentStatus as never,
    }),
    downloads: t.field({
      type: [DownloadLinkRef],
      description: 'One signed link per file of each digital line still owned (fully refunded lines are left out)',
      resolve: (v) => v.downloads,
    }),
  }),
});
