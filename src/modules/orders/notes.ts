// Order notes: staff remarks on an order (body 1 to 2000 characters), listed pinned first, then
// newest first; deletable. They appear in the order's timeline while they exist.
import { notFound } from '../../errors.js';
import { findOrder } from './service.js';
import { actorRecord, type OrdersCtx } from './shared.js';
import { noteView, type NoteView } from './views.js';

export const NOTE_BODY_MAX = 2000;

export async function addNote(ctx: OrdersCtx, orderId: string, input: { body: string; pinned?: boolean }): Promise<NoteView> {
  const order = await findOrder(ctx, orderId);
  const author = actorRecord(ctx);
  const row = await ctx.db.orderNote.create({
    data: { organizationId: ctx.organization.id, orderId: order.id, body: input.body, pinned: input.pinned ?? false, authorId: author.id, authorKind: author.kind },
  });
  return noteView(row);
}

export async function listNotes(ctx: OrdersCtx, orderId: string): Promise<NoteView[]> {
  const order = await findOrder(ctx, orderId);
  const rows = await ctx.db.orderNote.findMany({
    where: { orderId: order.id, organizationId: ctx.organization.id },
    orderBy: [{ pinned: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }],
  });
  return rows.map(noteView);
}

export async function deleteNote(ctx: OrdersCtx, orderId: string, noteId: string): Promise<NoteView> {
  const order = await findOrder(ctx, orderId);
  const row = await ctx.db.orderNote.findFirst({ where: { id: noteId, orderId: order.id, organizationId: ctx.organization.id } });
  if (!row) throw notFound('Note');
  const deleted = await ctx.db.orderNote.deleteMany({ where: { id: row.id, organizationId: ctx.organization.id } });
  if (!deleted.count) throw notFound('Note');
  return noteView(row);
}
