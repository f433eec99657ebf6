// The spec's built-in analytics models. Revenue measures leave cancelled orders out (money that
// was never taken); counts include every order so status breakdowns add up.
import { registerAnalyticsModel } from './registry.js';

const NOT_CANCELLED = `{T}.status <> 'cancelled'`;

registerAnalyticsModel({
  name: 'Orders',
  title: 'Orders',
  table: 'orders',
  measures: {
    count: { type: 'count', title: 'Orders' },
    revenue: { type: 'sum', sql: '{T}.grand_total', filter: NOT_CANCELLED, title: 'Revenue (grand total, cancelled orders excluded)', format: 'currency' },
    averageOrderValue: { type: 'avg', sql: '{T}.grand_total', filter: NOT_CANCELLED, title: 'Average order value', format: 'currency' },
    subtotalRevenue: { type: 'sum', sql: '{T}.subtotal', filter: NOT_CANCELLED, title: 'Subtotal revenue', format: 'currency' },
    taxCollected: { type: 'sum', sql: '{T}.tax_total', filter: NOT_CANCELLED, title: 'Tax collected', format: 'currency' },
    shippingRevenue: { type: 'sum', sql: '{T}.shipping_total', filter: NOT_CANCELLED, title: 'Shipping revenue', format: 'currency' },
    discountsGiven: { type: 'sum', sql: '{T}.discount_total', filter: NOT_CANCELLED, title: 'Discounts given', format: 'currency' },
    uniqueCustomers: { type: 'countDistinct', sql: `coalesce({T}.customer_id, lower({T}.customer_email))`, title: 'Unique customers (guests by email)' },
  },
  dimensions: {
    id: { type: 'string', sql: '{T}.id::text', title: 'Order id' },
    orderNumber: { type: 'string', sql: '{T}.number', title: 'Order number' },
    status: { type: 'string', sql: '{T}.status::text', title: 'Status' },
    paymentStatus: { type: 'string', sql: '{T}.payment_status::text', title: 'Payment status' },
    currency: { type: 'string', sql: '{T}.currency', title: 'Currency' },
    customerId: { type: 'string', sql: '{T}.customer_id', title: 'Customer id' },
    placedAt: { type: 'time', sql: '{T}.placed_at', title: 'Placed at' },
  },
  scopes: { customer: '{T}.customer_id' },
});

registerAnalyticsModel({
  name: 'OrderLineItems',
  title: 'Order line items',
  table: 'order_lines',
  measures: {
    count: { type: 'count', title: 'Lines' },
    itemsSold: { type: 'sum', sql: '{T}.quantity', title: 'Items sold' },
    lineItemRevenue: { type: 'sum', sql: '{T}.total_price', title: 'Line revenue (before discounts and tax)', format: 'currency' },
    averageUnitPrice: { type: 'avg', sql: '{T}.unit_price', title: 'Average unit price', format: 'currency' },
  },
  dimensions: {
    entityId: { type: 'string', sql: '{T}.entity_id::text', title: 'Catalog entity id' },
    entityType: { type: 'string', sql: '{T}.entity_type', title: 'Entity type' },
    sku: { type: 'string', sql: '{T}.sku', title: 'SKU' },
    title: { type: 'string', sql: '{T}.title', title: 'Title' },
    fulfillmentStatus: { type: 'string', sql: '{T}.fulfillment_status::text', title: 'Fulfillment status' },
    quantity: { type: 'number', sql: '{T}.quantity', title: 'Quantity' },
  },
  joins: { Orders: { sql: '{Orders}.id = {T}.order_id' } },
  scopes: { customer: '{Orders}.customer_id' },
});

registerAnalyticsModel({
  name: 'Inventory',
  title: 'Inventory levels',
  table: 'inventory_levels',
  measures: {
    totalOnHand: { type: 'sum', sql: '{T}.on_hand', title: 'On hand' },
    totalReserved: { type: 'sum', sql: '{T}.reserved', title: 'Reserved' },
    totalAvailable: { type: 'sum', sql: '{T}.on_hand - {T}.reserved', title: 'Available' },
    inventoryValue: { type: 'sum', sql: '{T}.on_hand * coalesce({T}.unit_cost, 0)', title: 'Stock value at cost', format: 'currency' },
    lowStockCount: { type: 'count', filter: '{T}.on_hand - {T}.reserved <= {T}.reorder_threshold', title: 'Levels at or below their reorder threshold' },
  },
  dimensions: {
    entityId: { type: 'string', sql: '{T}.entity_id::text', title: 'Catalog entity id' },
    variantId: { type: 'string', sql: '{T}.variant_id::text', title: 'Variant id' },
    warehouseId: { type: 'string', sql: '{T}.warehouse_id::text', title: 'Warehouse id' },
    onHand: { type: 'number', sql: '{T}.on_hand', title: 'On hand' },
    lastRestockedAt: { type: 'time', sql: '{T}.last_restocked_at', title: 'Last restocked at' },
  },
  segments: { lowStock: { sql: '{T}.on_hand - {T}.reserved <= {T}.reorder_threshold', title: 'At or below the reorder threshold (available stock)' } },
});

registerAnalyticsModel({
  name: 'Customers',
  title: 'Customers',
  table: 'customers',
  measures: {
    customerCount: { type: 'count', title: 'Customers' },
    newCustomers: { type: 'count', title: 'New customers (signed up in the time range)' },
    returningCustomers: {
      type: 'count',
      filter: `(select count(*) from orders x where x.organization_id = {T}.organization_id and x.customer_id = {T}.id and x.status <> 'cancelled') > 1`,
      title: 'Customers with more than one order',
    },
  },
  dimensions: {
    createdAt: { type: 'time', sql: '{T}.created_at', title: 'Signed up at' },
    customerGroup: { type: 'string', sql: `array_to_string({T}.customer_group_ids, ',')`, title: 'Customer groups (comma-separated)' },
  },
  scopes: { customer: '{T}.id' },
});
