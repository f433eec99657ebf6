// What the order, cart and checkout services share: the context they take, who the actor is in
// records (timeline, refund operator), the organization's settings they read, and calendar
// arithmetic in the organization's timezone.
import type { RequestContext } from '../../context.js';
import type { Db, Tx } from '../../db/client.js';
import type { ServiceContext } from '../../db/transaction.js';
import { hasPermission } from '../../auth/permissions.js';
import { PAYMENT_SETTING_DEFAULTS, POLICY_DEFAULTS } from '../settings/groups.js';

export type OrdersCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'requestId' | 'services' | 'logger' | 'config'>;
export type DbLike = Db | Tx;

/** The context other modules' services take, bound to a transaction. */
export function serviceCtx(ctx: Pick<RequestContext, 'organization' | 'actor' | 'requestId'>, db: DbLike): ServiceContext {
  return { organization: ctx.organization, actor: ctx.actor, requestId: ctx.requestId, db };
}

export const PERMISSION = {
  read: 'orders:read',
  readOwn: 'orders:read:own',
  update: 'orders:update',
  create: 'orders:create',
  onBehalf: 'orders:create:on-behalf',
} as const;

/** How an actor is written into records: a user (API keys act for the user they were minted for) or the system. */
export interface ActorRecord {
  id: string | null;
  kind: 'user' | 'apiKey' | 'anonymous' | 'system';
}

export function actorRecord(ctx: Pick<RequestContext, 'actor'>): ActorRecord {
  if (!ctx.actor) return { id: null, kind: 'anonymous' };
  return { id: ctx.actor.userId, kind: ctx.actor.kind };
}

export const SYSTEM_ACTOR: ActorRecord = { id: null, kind: 'system' };

/**
 * A caller who may only read their own orders: holds orders:read:own but not orders:read. Such
 * a caller sees the orders whose customerId is theirs, and nothing else (not even existence).
 */
export function ownOrdersOnly(ctx: Pick<RequestContext, 'actor'>): { customerId: string | null } | null {
  const granted = ctx.actor?.permissions ?? [];
  if (hasPermission(granted, PERMISSION.read)) return null;
  return { customerId: ctx.actor?.customerId ?? null };
}

// ── settings ──

export interface OrgSettings {
  timezone: string;
  locale: string;
  currency: string | null;
  refundDailyCap: number | null;
  refundUndoWindowMinutes: number;
  branding: Record<string, unknown>;
  shipping: { flatRate: number; freeOver: number | null };
  /** general.pricesIncludeTax: listed prices contain tax (default false). */
  pricesIncludeTax: boolean;
  /** tax.exemptCustomerGroupIds and tax.exemptionNote: orders of these groups carry no tax. */
  tax: { exemptCustomerGroupIds: string[]; exemptionNote: string };
  /** branding.address: where digital goods are taxed (the store's own address). */
  storeAddress: Record<string, unknown> | null;
  /** Settings payments (issue 26): the capture mode and the 3-D Secure action expiry. */
  payments: { capture: 'automatic' | 'manual' | 'on_fulfilment'; actionExpiryMinutes: number };
}

type Json = Record<string, unknown>;

/** The invoice note of a tax-exempt order unless settings tax.exemptionNote says otherwise. */
export const TAX_EXEMPTION_NOTE = 'Reverse charge';

/** The settings groups orders read, in one query. */
export async function orgSettings(db: DbLike, organizationId: string): Promise<OrgSettings> {
  const rows = await db.setting.findMany({
    where: { organizationId, group: { in: [...ORDER_SETTING_GROUPS] } },
    select: { group: true, values: true },
  });
  return settingsFrom(rows);
}

/** The settings groups orders read. */
export const ORDER_SETTING_GROUPS = ['general', 'policies', 'branding', 'shipping', 'tax', 'payments'] as const;

/** OrgSettings from the rows of ORDER_SETTING_GROUPS (checkout reads them with its cart lock). */
export function settingsFrom(rows: ReadonlyArray<{ group: string; values: unknown }>): OrgSettings {
  const group = (name: string) => (rows.find((row) => row.group === name)?.values ?? {}) as Json;
  const general = group('general');
  const policies = group('policies');
  const shipping = group('shipping');
  const tax = group('tax');
  const payments = group('payments');
  const num = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null);
  return {
    timezone: typeof general.timezone === 'string' ? general.timezone : 'UTC',
    locale: typeof general.locale === 'string' ? general.locale : 'en',
    currency: typeof general.currency === 'string' ? general.currency : null,
    refundDailyCap: num(policies.refundDailyCap),
    refundUndoWindowMinutes: num(policies.refundUndoWindowMinutes) ?? POLICY_DEFAULTS.refundUndoWindowMinutes,
    branding: group('branding'),
    shipping: { flatRate: num(shipping.flatRate) ?? 0, freeOver: num(shipping.freeOver) },
    pricesIncludeTax: general.pricesIncludeTax === true,
    tax: {
      exemptCustomerGroupIds: Array.isArray(tax.exemptCustomerGroupIds) ? tax.exemptCustomerGroupIds.filter((g): g is string => typeof g === 'string') : [],
      exemptionNote: typeof tax.exemptionNote === 'string' && tax.exemptionNote ? tax.exemptionNote : TAX_EXEMPTION_NOTE,
    },
    payments: {
      capture: payments.capture === 'manual' || payments.capture === 'on_fulfilment' ? payments.capture : PAYMENT_SETTING_DEFAULTS.capture,
      actionExpiryMinutes: num(payments.actionExpiryMinutes) || PAYMENT_SETTING_DEFAULTS.actionExpiryMinutes,
    },
    storeAddress: group('branding').address && typeof group('branding').address === 'object' ? (group('branding').address as Json) : null,
  };
}

// ── calendar in the organization's timezone ──

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of an instant in a timezone. */
export function calendarDay(at: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** Minutes to add to UTC to get local time in `timeZone` at `at`. */
function offsetMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** The instant the local day after `day` (YYYY-MM-DD) starts in `timeZone`. */
export function startOfNextDay(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(y, m - 1, d + 1);
  // Two passes settle days whose offset changes (DST) around midnight.
  let guess = midnightUtc - offsetMinutes(new Date(midnightUtc), timeZone) * 60_000;
  guess = midnightUtc - offsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess);
}

export function toNumber(value: bigint | number): number {
  return typeof value === 'bigint' ? Number(value) : value;
}
