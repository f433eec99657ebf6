// The plugin's analytics models (the analytics query API's vocabulary): VendorOrders,
// VendorBalance and VendorReviews. Each is scoped by vendor_id, so a vendor actor sees only its
// own rows (the analytics compiler adds the filter inside the statement); staff see the
// organization's.
import type { AnalyticsModel } from '../../src/modules/analytics/registry.js';

export const marketplaceAnalyticsModels: AnalyticsModel[] = [
  {
    name: 'VendorOrders',
    title: 'Vendor sub-orders',
    table: 'plugin_marketplace_sub_orders',
    measures: {
      count: { type: 'count', title: 'Sub-orders' },
      revenue: { type: 'sum', sql: '{T}.total', filter: `{T}.status <> 'cancelled'`, title: 'Revenue (cancelled excluded)', format: 'currency' },
      commissionPaid: { type: 'sum', sql: '{T}.commission_total', filter: `{T}.status <> 'cancelled'`, title: 'Commission', format: 'currency' },
      netPayout: { type: 'sum', sql: '{T}.net_amount', filter: `{T}.status <> 'cancelled'`, title: 'Net to the vendor', format: 'currency' },
    },
    dimensions: {
      vendorId: { type: 'string', sql: '{T}.vendor_id::text', title: 'Vendor id' },
      status: { type: 'string', sql: '{T}.status', title: 'Status' },
      currency: { type: 'string', sql: '{T}.currency', title: 'Currency' },
      createdAt: { type: 'time', sql: '{T}.created_at', title: 'Placed at' },
    },
    scopes: { vendor: '{T}.vendor_id::text' },
  },
  {
    name: 'VendorBalance',
    title: 'Vendor ledger',
    table: 'plugin_marketplace_ledger_entries',
    measures: {
      totalCredits: { type: 'sum', sql: '{T}.amount', filter: '{T}.amount > 0', title: 'Credits', format: 'currency' },
      totalDebits: { type: 'sum', sql: '-{T}.amount', filter: '{T}.amount < 0', title: 'Debits', format: 'currency' },
      netBalance: { type: 'sum', sql: '{T}.amount', title: 'Net balance', format: 'currency' },
    },
    dimensions: {
      vendorId: { type: 'string', sql: '{T}.vendor_id::text', title: 'Vendor id' },
      kind: { type: 'string', sql: '{T}.kind', title: 'Entry kind' },
      currency: { type: 'string', sql: '{T}.currency', title: 'Currency' },
      createdAt: { type: 'time', sql: '{T}.created_at', title: 'Booked at' },
    },
    scopes: { vendor: '{T}.vendor_id::text' },
  },
  {
    name: 'VendorReviews',
    title: 'Vendor reviews',
    table: 'plugin_marketplace_reviews',
    measures: {
      count: { type: 'count', title: 'Reviews' },
      averageRating: { type: 'avg', sql: '{T}.rating', title: 'Average rating', format: 'number' },
    },
    dimensions: {
      vendorId: { type: 'string', sql: '{T}.vendor_id::text', title: 'Vendor id' },
      status: { type: 'string', sql: '{T}.status', title: 'Status' },
      rating: { type: 'number', sql: '{T}.rating', title: 'Rating' },
      createdAt: { type: 'time', sql: '{T}.created_at', title: 'Written at' },
    },
    scopes: { vendor: '{T}.vendor_id::text' },
  },
];
