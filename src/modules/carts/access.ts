// Who may read or change a cart.
//   - Signed-in callers need the route's cart permission (cart:create, cart:read, cart:update);
//     anonymous shoppers may create and use guest carts.
//   - A customer's cart (customerId set) is reachable by that customer only, and by staff who act
//     for customers (orders:create:on-behalf).
//   - A guest cart (no customer) is reachable only with the secret returned at its creation,
//     sent as the `x-cart-token` header (staff acting for customers excepted).
// A cart the caller may not reach is answered 404, the same as one that does not exist.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../../context.js';
import { hasPermission } from '../../auth/permissions.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { PERMISSION } from '../orders/shared.js';

export const CART_TOKEN_HEADER = 'x-cart-token';

export type CartAction = 'create' | 'read' | 'update';

export function requireCartPermission(ctx: Pick<RequestContext, 'actor'>, action: CartAction): void {
  if (ctx.actor && !hasPermission(ctx.actor.permissions, `cart:${action}`)) throw forbidden(`Insufficient permissions: missing permission cart:${action}`);
}

/** Staff who act for customers reach every cart of the organization. */
export function actsForCustomers(ctx: Pick<RequestContext, 'actor'>): boolean {
  return hasPermission(ctx.actor?.permissions ?? [], PERMISSION.onBehalf);
}

export function newCartToken(): { token: string; hash: string } {
  const token = `ct_${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cartTokenOf(ctx: Pick<RequestContext, 'request'>): string | null {
  return ctx.request.headers.get(CART_TOKEN_HEADER);
}

/** Throws 404 unless the caller may reach this cart. */
export function assertCartReachable(ctx: Pick<RequestContext, 'actor' | 'request'>, cart: { customerId: string | null; tokenHash: string | null }): void {
  if (actsForCustomers(ctx)) return;
  if (cart.customerId) {
    if (ctx.actor?.customerId && ctx.actor.customerId === cart.customerId) return;
    throw notFound('Cart');
  }
  const token = cartTokenOf(ctx);
  if (token && cart.tokenHash && sameHash(hashToken(token), cart.tokenHash)) return;
  throw new AppError('NOT_FOUND', `Cart not found (a guest cart is reachable only with its ${CART_TOKEN_HEADER} header)`);
}
