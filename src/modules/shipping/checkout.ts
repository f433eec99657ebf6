// What checkout asks of shipping (issue 25): the chosen method, priced for the order's lines and
// address. Rules:
//   - no shippable line (digital goods only), or no active method whose zone contains the
//     address: no shipping line (the legacy flat rule applies);
//   - otherwise a method is required: `shippingMethodId`, else the one chosen on the cart; it must
//     be one of the cart's options for that address (422 naming shippingMethodId otherwise).
// Cost: only stores with active methods call this; one statement for the methods and one for the
// chosen method's tax class, whatever the number of lines.
import { randomUUID } from 'node:crypto';
import { validationFailed } from '../../errors.js';
import type { ServiceContext } from '../../db/transaction.js';
import type { OrderShippingLine, Prisma } from '../../generated/prisma/client.js';
import type { CarrierContext } from './carrier/price.js';
import { quoteShipping, shippableLines, type QuoteLine, type QuoteTax, type ShippingOption } from './quote.js';

export interface CheckoutShippingRequest {
  currency: string;
  address: { country: string; state?: string | null; postalCode?: string | null };
  groups: readonly string[];
  lines: readonly QuoteLine[];
  /** Sent with the checkout; wins over the cart's. */
  methodId: string | null | undefined;
  cartMethodId: string | null;
  /** Checkout's tax mode (settings and exemption), so the option's tax is the order's. */
  tax?: QuoteTax;
  /** Where `carrier` methods get their rates (carrier/price.ts carrierContext). */
  carrier?: CarrierContext | null;
}

export async function checkoutShipping(ctx: ServiceContext, request: CheckoutShippingRequest): Promise<ShippingOption | null> {
  if (!shippableLines(request.lines).length) return null;
  const methodId = request.methodId ?? request.cartMethodId ?? undefined;
  const destination = { country: request.address.country, state: request.address.state ?? null, postalCode: request.address.postalCode ?? null };
  const quote = await quoteShipping(ctx, {
    currency: request.currency,
    destination,
    groups: request.groups,
    lines: request.lines,
    carrier: request.carrier ?? null,
    ...(methodId ? { onlyMethodId: methodId } : {}),
    ...(request.tax ? { tax: request.tax } : {}),
  });
  if (!quote.covered) {
    if (request.methodId) throw validationFailed([{ field: 'shippingMethodId', message: 'no shipping method serves this address' }]);
    return null;
  }
  if (!methodId) throw validationFailed([{ field: 'shippingMethodId', message: "required: choose one of the cart's shipping options (GET /carts/:id/shipping-options)" }]);
  const option = quote.options.find((o) => o.methodId === methodId);
  if (!option) throw validationFailed([{ field: 'shippingMethodId', message: 'not a shipping option of this cart for this address (see GET /carts/:id/shipping-options)' }]);
  return option;
}

/** The order's shipping line for the chosen option, at the totals' figures. */
export function shippingLineRow(organizationId: string, orderId: string, option: ShippingOption, figures: { amount: number; taxTotal: number }, now: Date): OrderShippingLine {
  return {
    id: randomUUID(),
    organizationId,
    orderId,
    methodId: option.methodId,
    code: option.code,
    name: option.name,
    amount: BigInt(figures.amount),
    taxRateBps: option.taxRateBps,
    taxTotal: BigInt(figures.taxTotal),
    minDays: option.minDays,
    maxDays: option.maxDays,
    warehouseId: option.pickupLocation?.warehouseId ?? null,
    pickupLocation: (option.pickupLocation as unknown as Prisma.JsonObject) ?? null,
    refundedAmount: 0n,
    createdAt: now,
  };
}
