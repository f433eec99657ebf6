// Order and invoice numbers: ORD-YYYY-NNNNNN and INV-YYYY-NNNNNN, sequential per organization and
// year (the year of the organization's calendar). The next value comes from one upsert on the
// counter row (INSERT ... ON CONFLICT DO UPDATE ... RETURNING) inside the caller's transaction:
// the row lock orders concurrent callers, and a rolled-back transaction takes its increment with
// it, so numbers are never skipped or reused. Checkout uses `assignNumber`, which writes the
// number on the order in the same statement, as its last write but one.
import type { DbLike } from './shared.js';
import { calendarDay } from './shared.js';

export type CounterKind = 'order' | 'invoice';

const PREFIX: Record<CounterKind, string> = { order: 'ORD', invoice: 'INV' };

export const ORDER_NUMBER_RE = /^ORD-\d{4}-\d{6,}$/;

export function yearIn(at: Date, timeZone: string): number {
  return Number(calendarDay(at, timeZone).slice(0, 4));
}

export function formatNumber(kind: CounterKind, year: number, value: number): string {
  return `${PREFIX[kind]}-${year}-${String(value).padStart(6, '0')}`;
}

export async function nextNumber(tx: DbLike, organizationId: string, kind: CounterKind, year: number): Promise<string> {
  const rows = await tx.$queryRaw<Array<{ value: number }>>`
    insert into order_counters (organization_id, kind, year, value)
    values (${organizationId}::uuid, ${kind}, ${year}, 1)
    on conflict (organization_id, kind, year) do update set value = order_counters.value + 1
    returning value`;
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return formatNumber(kind, year, rows[0]!.value);
}

/**
 * Takes the next order number and writes it on the order in one statement (the counter upsert
 * and the update in one CTE), so the counter row lock is taken as late as possible.
 */
export async function assignNumber(tx: DbLike, organizationId: string, kind: CounterKind, year: number, orderId: string): Promise<string> {
  const rows = await tx.$queryRaw<Array<{ number: string }>>`
    with next as (
      insert into order_counters (organization_id, kind, year, value)
      values (${organizationId}::uuid, ${kind}, ${year}, 1)
      on conflict (organization_id, kind, year) do update set value = order_counters.value + 1
      returning value
    )
    update orders set number = ${`${PREFIX[kind]}-${year}-`} || case when length(next.value::text) >= 6 then next.value::text else lpad(next.value::text, 6, '0') end
    from next
    where orders.id = ${orderId}::uuid
    returning orders.number`;
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return rows[0]!.number;
}
