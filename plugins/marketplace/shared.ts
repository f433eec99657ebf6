// What every part of the marketplace plugin shares: the context a service function takes, the
// state-machine helper (illegal moves are 422 INVALID_TRANSITION), money rounding (defined
// once), the caller's audience (admin, vendor, customer) and event recording.
import type { RequestContext } from '../../src/context.js';
import type { Tx } from '../../src/db/client.js';
import { AppError, forbidden } from '../../src/errors.js';
import { hasPermission } from '../../src/auth/permissions.js';
import { originOf, recordEvent } from '../../src/events/outbox.js';

export type Ctx = Pick<RequestContext, 'organization' | 'actor' | 'requestId' | 'db' | 'services' | 'logger' | 'config'>;

/** Event names the plugin emits (registered for webhooks through the manifest). */
export const MARKETPLACE_EVENTS = [
  'marketplace.vendor.create',
  'marketplace.vendor.update',
  'marketplace.vendor.statusChange',
  'marketplace.vendorDocument.update',
  'marketplace.subOrder.create',
  'marketplace.subOrder.statusChange',
  'marketplace.payout.create',
  'marketplace.payout.update',
  'marketplace.dispute.create',
  'marketplace.dispute.update',
  'marketplace.return.create',
  'marketplace.return.update',
  'marketplace.review.create',
  'marketplace.review.update',
] as const;
export type MarketplaceEvent = (typeof MARKETPLACE_EVENTS)[number];

/** Records an outbox event in the caller's transaction (delivered to webhooks after commit). */
export async function emit(tx: Tx, ctx: Pick<RequestContext, 'organization' | 'actor' | 'requestId'>, type: MarketplaceEvent, payload: Record<string, unknown>): Promise<void> {
  await recordEvent(tx, originOf(ctx), type as never, payload as never);
}

/** A state table: `MOVES[from]` lists the states `from` may move to. */
export type Moves<S extends string> = Record<S, readonly S[]>;

export function assertMove<S extends string>(what: string, moves: Moves<S>, from: string, to: S): void {
  if (!(moves[from as S] ?? []).includes(to)) {
    throw new AppError('INVALID_TRANSITION', `a ${from} ${what} cannot become ${to}`, { from, to, allowed: moves[from as S] ?? [] });
  }
}

/**
 * Rounding, defined once: amounts derived from a rate are rounded half away from zero to whole
 * minor units (`bps` of `amount`). Every commission and every split goes through this.
 */
export function applyBps(amount: number, bps: number): number {
  const exact = (amount * bps) / 10_000;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

export const num = (v: bigint | number | null | undefined): number => (v === null || v === undefined ? 0 : Number(v));
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The vendor the caller acts for; 403 for anyone else (admins included: the portal is the vendor's). */
export function vendorOf(ctx: Pick<RequestContext, 'actor'>): string {
  const vendorId = ctx.actor?.vendorId;
  if (!vendorId) throw forbidden('This account acts for no vendor: the vendor portal is for vendor users');
  return vendorId;
}

/** Who is asking, for routes shared by admins, vendors and customers; the SQL filter follows from it. */
export type Audience = { kind: 'admin' } | { kind: 'vendor'; vendorId: string } | { kind: 'customer'; customerId: string };

export function audienceOf(ctx: Pick<RequestContext, 'actor'>, adminPermission: string): Audience {
  const actor = ctx.actor;
  if (actor?.vendorId) return { kind: 'vendor', vendorId: actor.vendorId };
  if (actor && hasPermission(actor.permissions, adminPermission)) return { kind: 'admin' };
  if (actor?.customerId) return { kind: 'customer', customerId: actor.customerId };
  throw forbidden();
}

/** The row filter of an audience (organization always; vendor or customer when they ask). */
export function scopeWhere(ctx: Pick<RequestContext, 'organization'>, audience: Audience): { organizationId: string; vendorId?: string; customerId?: string } {
  return {
    organizationId: ctx.organization.id,
    ...(audience.kind === 'vendor' ? { vendorId: audience.vendorId } : {}),
    ...(audience.kind === 'customer' ? { customerId: audience.customerId } : {}),
  };
}

export function page<T>(data: T[], total: number, limit: number, offset: number) {
  return { data, meta: { total, limit, offset } };
}

/**
 * The vendor's part of an amount given back to the customer: the amount less the commission
 * on it, in the sub-order's own commission proportion (rounded half up once).
 */
export function vendorShare(amount: number, commissionTotal: number, total: number): number {
  if (amount <= 0 || total <= 0) return 0;
  return amount - Math.round((amount * commissionTotal) / total);
}
