// Payment links of draft orders (issue 27): POST /draft-orders/:id/send emails the customer a link
// that opens a checkout for exactly the draft's lines and prices; the shopper opens it
// (GET /draft-order-links/:token, public) and pays (POST /draft-order-links/:token/checkout,
// public), which completes the draft into an order through completion's own path (complete.ts:
// stock reserved only then, the payment started through payments/authorize.ts).
//
// The token is 32 random bytes (base64url): unguessable without a signature. Only its SHA-256 is
// stored (a leaked table opens no checkout), it expires (expiresInDays, default
// DRAFT_LINK_TTL_DAYS), and the public routes spend the caller's `guess` budget. One live link per
// draft: a re-send replaces it, an edit kills it (the draft goes back to open: the link priced
// other lines), completion uses it up (a second visit is 409, not a second order).
//
// The mail goes out inside the send's transaction, before it commits: a mail that cannot be sent
// leaves the draft as it was (503). A commit that fails after the mail left would leave a mailed
// link that opens nothing; a re-send fixes it.
import { createHash, randomBytes } from 'node:crypto';
import { AppError, conflict, validationFailed } from '../../errors.js';
import type { DraftOrder } from '../../generated/prisma/client.js';
import { at } from '../orders/at.js';
import type { OrdersCtx } from '../orders/shared.js';
import { inTransaction } from '../orders/tx.js';
import type { OrderView } from '../orders/views.js';
import { defaultReturnUrl } from '../payments/authorize.js';
import { paymentView, type PaymentView } from '../payments/records.js';
import { completeDraftWith } from './complete.js';
import { priceDraft, type PricedDraft } from './pricing.js';
import { lockOpenDraft } from './service.js';
import { draftView, type DraftView } from './views.js';

export const DRAFT_LINK_TTL_DAYS = 7;
export const DRAFT_LINK_MAX_TTL_DAYS = 90;
/** Public path of a link (under /api); the emailed URL is this server's origin + /api + this. */
export const DRAFT_LINK_PATH = '/draft-order-links';

const DAY_MS = 24 * 60 * 60 * 1000;

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface DraftLinkLine {
  title: string;
  sku: string | null;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
}

/** What the link's page shows: the lines and totals its checkout charges. */
export interface DraftLinkView {
  currency: string;
  lines: DraftLinkLine[];
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  taxTotal: number;
  grandTotal: number;
  expiresAt: Date;
}

export interface DraftLinkCheckoutResult {
  order: OrderView;
  /** The payment started (null: nothing to pay). status requires_action: send the shopper through nextAction. */
  payment: PaymentView | null;
}

function linkView(draft: DraftOrder, p: PricedDraft): DraftLinkView {
  const { totals } = p.priced;
  return {
    currency: draft.currency,
    lines: p.lines.map((l, i) => ({
      title: at(p.sellables, i).title,
      sku: at(p.sellables, i).sku || null,
      quantity: l.quantity,
      unitPrice: at(p.unitPrices, i),
      totalPrice: at(totals.lines, i).totalPrice,
    })),
    subtotal: totals.subtotal,
    discountTotal: totals.discountTotal,
    shippingTotal: totals.shippingTotal,
    taxTotal: totals.taxTotal,
    grandTotal: totals.grandTotal,
    // biome-ignore lint/style/noNonNullAssertion: a draft found by its link hash has its expiry (both are written and cleared together)
    expiresAt: draft.linkExpiresAt!,
  };
}

function money(amount: number, currency: string): string {
  return `${(amount / 100).toFixed(2)} ${currency}`;
}

function linkUrl(ctx: OrdersCtx & { request?: Request }, token: string): string {
  return `${defaultReturnUrl(ctx)}api${DRAFT_LINK_PATH}/${token}`;
}

/** POST /draft-orders/:id/send: a new link (the old one dies), emailed to the customer. */
export async function sendDraft(ctx: OrdersCtx & { request?: Request }, id: string, input: { expiresInDays?: number | null }): Promise<DraftView> {
  return inTransaction(ctx.db, async (tx) => {
    const draft = await lockOpenDraft(tx, ctx, id, 'sent');
    // Priced now so that a draft its checkout would refuse (no address, an unpriced item) is refused here, with the same 422.
    const priced = await priceDraft(tx, ctx, draft, draft.id);
    const to = priced.email;
    if (!to) throw validationFailed([{ field: 'email', message: 'the draft has no email address to send the link to' }]);
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (input.expiresInDays ?? DRAFT_LINK_TTL_DAYS) * DAY_MS);
    const row = await tx.draftOrder.update({
      where: { id: draft.id },
      data: { status: 'sent', linkTokenHash: hashLinkToken(token), linkExpiresAt: expiresAt, sentTo: to, sentAt: now },
    });
    const view = linkView(row, priced);
    const url = linkUrl(ctx, token);
    const lines = view.lines.map((l) => `  ${l.quantity} × ${l.title} at ${money(l.unitPrice, view.currency)} = ${money(l.totalPrice, view.currency)}`);
    await ctx.services.mailer
      .send({
        to,
        subject: `${ctx.organization.name}: your order is ready to pay`,
        text: [
          'Your order is ready. Pay here:',
          url,
          '',
          ...lines,
          `Discount: ${money(view.discountTotal, view.currency)}`,
          `Shipping: ${money(view.shippingTotal, view.currency)}`,
          `Tax: ${money(view.taxTotal, view.currency)}`,
          `Total: ${money(view.grandTotal, view.currency)}`,
          '',
          `The link works once, until ${expiresAt.toISOString()}.`,
        ].join('\n'),
      })
      .catch((error: unknown) => {
        ctx.logger.warn({ err: error, draftId: draft.id }, 'draft payment link mail failed');
        throw new AppError('SERVICE_UNAVAILABLE', 'The payment link could not be emailed; nothing was changed, try again');
      });
    return draftView(row);
  });
}

/** The draft a token opens: 404 unknown (or replaced by a re-send or an edit), 404 LINK_EXPIRED; once used, 409 to pay and 404 LINK_USED to read. */
async function draftByToken(ctx: OrdersCtx, token: string, used: 'notFound' | 'conflict'): Promise<DraftOrder> {
  const draft = await ctx.db.draftOrder.findFirst({ where: { linkTokenHash: hashLinkToken(token), organizationId: ctx.organization.id } });
  assertLive(draft, used);
  return draft;
}

function assertLive(draft: DraftOrder | null, used: 'notFound' | 'conflict'): asserts draft is DraftOrder {
  if (!draft) throw new AppError('NOT_FOUND', 'Payment link not found (a newer link or an edit replaces it)', { reason: 'LINK_UNKNOWN' });
  if (draft.status === 'completed') {
    // Paying a used link is a move from completed (409, as every move of a completed draft); reading it finds no checkout to show.
    if (used === 'conflict') throw conflict('This payment link was already used: the order exists', { reason: 'INVALID_TRANSITION', from: 'completed', to: 'completed' });
    throw new AppError('NOT_FOUND', 'This payment link was already used: the order exists', { reason: 'LINK_USED' });
  }
  if (!draft.linkExpiresAt || draft.linkExpiresAt.getTime() <= Date.now()) throw new AppError('NOT_FOUND', 'This payment link has expired', { reason: 'LINK_EXPIRED' });
}

/** GET /draft-order-links/:token: the lines and totals the link's checkout charges. */
export async function draftLink(ctx: OrdersCtx, token: string): Promise<DraftLinkView> {
  const draft = await draftByToken(ctx, token, 'notFound');
  // A read: priceDraft writes nothing (no promotion codes are redeemed), the transaction only gives it one snapshot.
  return inTransaction(ctx.db, async (tx) => linkView(draft, await priceDraft(tx, ctx, draft, draft.id)));
}

/** POST /draft-order-links/:token/checkout: the shopper pays; the draft completes into an order. */
export async function draftLinkCheckout(
  ctx: OrdersCtx & { request?: Request },
  token: string,
  input: { paymentMethodId: string; returnUrl?: string | null },
): Promise<DraftLinkCheckoutResult> {
  const hash = hashLinkToken(token);
  const found = await draftByToken(ctx, token, 'conflict');
  const { order, paymentId } = await completeDraftWith(
    ctx,
    found.id,
    { paymentMethodId: input.paymentMethodId },
    {
      // Checked again under the draft's lock: a re-send, an edit or staff's completion may have won the race.
      guard: (draft) => assertLive(draft.linkTokenHash === hash ? draft : null, 'conflict'),
      returnUrl: input.returnUrl ?? null,
      reason: 'draft order, paid through its payment link',
    },
  );
  const payment = paymentId ? await ctx.db.payment.findUnique({ where: { id: paymentId } }) : null;
  return { order, payment: payment ? paymentView(payment) : null };
}
