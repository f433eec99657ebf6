// Customer and address shapes for GraphQL and REST.
import type { Customer, CustomerAddress } from '../../generated/prisma/client.js';

export interface CustomerAddressView {
  id: string;
  firstName: string;
  lastName: string;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postalCode: string;
  country: string;
  phone: string | null;
  isDefaultShipping: boolean;
  isDefaultBilling: boolean;
  createdAt: Date;
}

export interface CustomerView {
  id: string;
  userId: string | null;
  email: string;
  name: string;
  phone: string | null;
  marketingConsent: boolean;
  customerGroupIds: string[];
  defaultShippingAddress: CustomerAddressView | null;
  defaultBillingAddress: CustomerAddressView | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The staff view: the profile plus what the customer bought. */
export interface CustomerSummaryView extends CustomerView {
  ordersCount: number;
  /** Captured minus refunded, over every order, in minor units of the organization's currency. */
  lifetimeValue: number;
  lastOrderAt: Date | null;
}

export type CustomerRow = Customer & { addresses: CustomerAddress[] };

/** Only the default addresses are loaded with a customer (one statement with the customer). */
export const CUSTOMER_INCLUDE = {
  addresses: { where: { OR: [{ isDefaultShipping: true }, { isDefaultBilling: true }] }, orderBy: { createdAt: 'asc' as const } },
};

export function addressView(row: CustomerAddress): CustomerAddressView {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    line1: row.line1,
    line2: row.line2,
    city: row.city,
    state: row.state,
    postalCode: row.postalCode,
    country: row.country,
    phone: row.phone,
    isDefaultShipping: row.isDefaultShipping,
    isDefaultBilling: row.isDefaultBilling,
    createdAt: row.createdAt,
  };
}

export function customerView(row: CustomerRow): CustomerView {
  const shipping = row.addresses.find((a) => a.isDefaultShipping);
  const billing = row.addresses.find((a) => a.isDefaultBilling);
  return {
    id: row.id,
    userId: row.userId,
    email: row.email,
    name: row.name,
    phone: row.phone,
    marketingConsent: row.marketingConsent,
    customerGroupIds: row.customerGroupIds,
    defaultShippingAddress: shipping ? addressView(shipping) : null,
    defaultBillingAddress: billing ? addressView(billing) : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface CustomerPayload {
  id: string;
  userId: string | null;
  email: string;
  name: string;
  phone: string | null;
  marketingConsent: boolean;
  customerGroupIds: string[];
}

export function customerPayload(row: Customer): CustomerPayload {
  return { id: row.id, userId: row.userId, email: row.email, name: row.name, phone: row.phone, marketingConsent: row.marketingConsent, customerGroupIds: row.customerGroupIds };
}
