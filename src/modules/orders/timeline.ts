// GET /orders/:id/timeline: one list, newest first, merging the order's status changes, notes,
// refunds and refund undos (and refunds the provider refused) and confirmed order edits (issue 27:
// data.before and data.after hold the lines and totals on each side) as { type, at, actor, summary, data }.
// `type` is status, note, refund or edit (an undo is a refund entry whose data.action is `undone`).
import { findOrder } from './service.js';
import { toNumber, type OrdersCtx } from './shared.js';

export interface TimelineEntry {
  type: 'status' | 'note' | 'refund' | 'edit';
  at: Date;
  actor: { id: string | null; kind: string };
  summary: string;
  data: Record<string, unknown>;
}

function money(amount: bigint | number, currency: string): string {
  return `${toNumber(amount)} ${currency} (minor units)`;
}

export async function orderTimeline(ctx: OrdersCtx, orderId: string): Promise<TimelineEntry[]> {
  const order = await findOrder(ctx, orderId);
  return (await orderTimelines(ctx, [order.id])).get(order.id) ?? [];
}

/** The timelines of several orders (already known to be readable) in four statements. */
export async function orderTimelines(ctx: Pick<OrdersCtx, 'db' | 'organization'>, orderIds: string[]): Promise<Map<string, TimelineEntry[]>> {
  const where = { orderId: { in: orderIds }, organizationId: ctx.organization.id };
  const [changes, notes, refunds, edits] = await Promise.all([
    ctx.db.orderStatusChange.findMany({ where }),
    ctx.db.orderNote.findMany({ where }),
    ctx.db.orderRefund.findMany({ where, include: { lines: true } }),
    ctx.db.orderEdit.findMany({ where: { ...where, status: 'confirmed' } }),
  ]);
  const byOrder = new Map<string, TimelineEntry[]>();
  for (const id of orderIds) {
    const own = <T extends { orderId: string }>(rows: T[]) => rows.filter((row) => row.orderId === id);
    byOrder.set(id, buildTimeline(own(changes), own(notes), own(refunds), own(edits)));
  }
  return byOrder;
}

type StatusChangeRow = Awaited<ReturnType<OrdersCtx['db']['orderStatusChange']['findMany']>>[number];
type NoteRow = Awaited<ReturnType<OrdersCtx['db']['orderNote']['findMany']>>[number];
type RefundRow = Awaited<ReturnType<OrdersCtx['db']['orderRefund']['findMany']>>[number] & { lines: Array<{ lineId: string; quantity: number; amount: bigint }> };
type EditRow = Awaited<ReturnType<OrdersCtx['db']['orderEdit']['findMany']>>[number];

function buildTimeline(changes: StatusChangeRow[], notes: NoteRow[], refunds: RefundRow[], edits: EditRow[] = []): TimelineEntry[] {
  const entries: Array<TimelineEntry & { seq: number }> = [];
  for (const c of changes) {
    entries.push({
      type: 'status',
      at: c.createdAt,
      actor: { id: c.actorId, kind: c.actorKind },
      summary: c.fromStatus ? `Status changed from ${c.fromStatus} to ${c.toStatus}` : `Order placed (${c.toStatus})`,
      data: { id: c.id, from: c.fromStatus, to: c.toStatus, trigger: c.trigger, reason: c.reason },
      seq: 0,
    });
  }
  for (const n of notes) {
    entries.push({
      type: 'note',
      at: n.createdAt,
      actor: { id: n.authorId, kind: n.authorKind },
      summary: n.pinned ? 'Pinned note added' : 'Note added',
      data: { id: n.id, body: n.body, pinned: n.pinned },
      seq: 1,
    });
  }
  for (const r of refunds) {
    const lines = r.lines.map((l) => ({ lineItemId: l.lineId, quantity: l.quantity, amount: toNumber(l.amount) }));
    const base = { refundId: r.id, amount: toNumber(r.amount), currency: r.currency, lines };
    entries.push({
      type: 'refund',
      at: r.createdAt,
      actor: { id: r.operatorId, kind: r.operatorKind },
      summary: `Refund of ${money(r.amount, r.currency)}${r.reason ? `: ${r.reason}` : ''}`,
      data: { ...base, action: 'created', reason: r.reason },
      seq: 2,
    });
    if (r.undoneAt) {
      entries.push({
        type: 'refund',
        at: r.undoneAt,
        actor: { id: r.undoneBy, kind: r.undoneBy ? 'user' : 'system' },
        summary: `Refund of ${money(r.amount, r.currency)} undone`,
        data: { ...base, action: 'undone' },
        seq: 3,
      });
    }
    if (r.status === 'failed' && r.settledAt) {
      entries.push({
        type: 'refund',
        at: r.settledAt,
        actor: { id: null, kind: 'system' },
        summary: `Refund of ${money(r.amount, r.currency)} refused by the payment provider`,
        data: { ...base, action: 'failed', failureReason: r.failureReason },
        seq: 4,
      });
    }
  }
  for (const e of edits) {
    const before = e.before as { grandTotal?: number };
    const after = e.after as { grandTotal?: number };
    entries.push({
      type: 'edit',
      at: e.decidedAt ?? e.createdAt,
      actor: { id: e.decidedById, kind: e.decidedByKind ?? e.createdByKind },
      summary: `Order edited: total ${before.grandTotal ?? '?'} → ${after.grandTotal ?? '?'} (minor units)${e.reason ? `: ${e.reason}` : ''}`,
      data: { editId: e.id, before: e.before, after: e.after, difference: toNumber(e.difference), paymentAction: e.paymentAction, refundId: e.refundId, operations: e.operations },
      seq: 1,
    });
  }
  // Newest first; entries of the same instant keep a stable, causal order (later kinds first).
  entries.sort((a, b) => b.at.getTime() - a.at.getTime() || b.seq - a.seq);
  return entries.map(({ seq: _seq, ...entry }) => entry);
}
