// POST /draft-orders/:id/complete: the draft becomes a real order, written the way checkout
// writes one (checkout/write.ts: the order, its lines, first status, number and orders.create in
// one statement) after pricing through checkout's path (checkout/pricing.ts: shipping, tax,
// totals; the custom unit prices and the manual discount taken as given). Stock is reserved here
// (never while the order is a draft), in checkout's lock order. With paymentPending (invoice
// terms) nothing is charged: the order stays pending, awaiting payment; otherwise
// paymentMethodId is authorized through the configured provider exactly as checkout does
// (payments/authorize.ts, settings payments.capture): the payment record is written in the
// order's statement and the provider's event (or the confirm route after a 3-D Secure action)
// confirms the order.
import { randomUUID } from 'node:crypto';
import { AppError, conflict, validationFailed } from '../../errors.js';
import { originOf } from '../../events/outbox.js';
import type { DraftOrder, OrderLine, Prisma } from '../../generated/prisma/client.js';
import { portsOf } from '../checkout/wiring.js';
import { writeOrder, type OrderWrite, type StatusChangeRow } from '../checkout/write.js';
import { at } from '../orders/at.js';
import { yearIn } from '../orders/numbers.js';
import { actorRecord, serviceCtx, type OrdersCtx } from '../orders/shared.js';
import { inTransaction } from '../orders/tx.js';
import { orderPayload, orderView, type OrderRow, type OrderView } from '../orders/views.js';
import { shippingLineRow } from '../shipping/checkout.js';
import { shippingLineView } from '../shipping/line-view.js';
import { authorizeOrderPayment, defaultReturnUrl, releaseAuthorization, type StartedPayment } from '../payments/authorize.js';
import { paymentAttemptRoot } from '../payments/attempts.js';
import { lockOpenDraft } from './service.js';
import { priceDraft } from './pricing.js';
import { isGiftCardType } from '../gift-cards/product.js';

export interface CompleteInput {
  paymentPending?: boolean | null;
  paymentMethodId?: string | null;
}

/** How a completion through the payment link differs from staff's (link.ts). */
export interface CompleteOptions {
  /** Runs on the locked draft before anything is written: the link checks its token is still the draft's and unexpired. */
  guard?: (draft: DraftOrder) => void;
  /** Where a 3-D Secure / redirect action brings the shopper back; default this server's origin. */
  returnUrl?: string | null;
  /** The status history's reason for the first status. */
  reason?: string;
}

export async function completeDraft(ctx: OrdersCtx & { request?: Request }, id: string, input: CompleteInput): Promise<OrderView> {
  return (await completeDraftWith(ctx, id, input, {})).order;
}

/** Completes the draft; answers the order and the payment started for it (null: nothing charged). */
export async function completeDraftWith(
  ctx: OrdersCtx & { request?: Request },
  id: string,
  input: CompleteInput,
  options: CompleteOptions,
): Promise<{ order: OrderView; paymentId: string | null }> {
  if (!input.paymentPending && !input.paymentMethodId) throw validationFailed([{ field: 'paymentMethodId', message: 'required unless paymentPending is true' }]);
  const payments = ctx.services.payments;
  const provider = payments.provider;
  // The draft is the payment's logical attempt (payments/attempts.ts): a retry after a crash
  // (staff's or the shopper's through the link) reuses the provider's first authorization.
  const attemptRoot = paymentAttemptRoot(ctx.organization.id, `draft:${id}`);
  let started: StartedPayment | null = null;
  try {
    return await inTransaction(
      ctx.db,
      async (tx) => {
        started = null;
        const draft = await lockOpenDraft(tx, ctx, id, 'completed');
        options.guard?.(draft);
        const orderId = randomUUID();
        const { lines, address, sellables, groups, email, unitPrices, settings, priced } = await priceDraft(tx, ctx, draft, orderId);
        const organizationId = ctx.organization.id;
        const ports = portsOf(ctx.services);
        const { totals, rates, shippingOption, tax } = priced;

        // Stock, only now, in checkout's lock order. Gift-card products are issued, not picked from
        // a shelf: as at checkout they reserve nothing (their cards are issued once the order is paid).
        const giftCard = lines.map((_, i) => isGiftCardType(at(sellables, i).entityType));
        const order = lines
          .map((_, i) => i)
          .filter((i) => !giftCard[i])
          .sort((a, b) => at(lines, a).entityId.localeCompare(at(lines, b).entityId) || (at(lines, a).variantId ?? '').localeCompare(at(lines, b).variantId ?? ''));
        const reservedSorted = await ports.inventory
          .reserve(
            serviceCtx(ctx, tx),
            order.map((i) => ({
              entityId: at(lines, i).entityId,
              variantId: at(lines, i).variantId,
              quantity: at(lines, i).quantity,
              reference: `order:${orderId}`,
              warehouseId: priced.pickupWarehouseId,
            })),
          )
          .catch((error: unknown) => {
            throw error instanceof AppError ? conflict(`Not enough stock to complete the draft: ${error.message}`, { step: 'inventory', code: error.code }) : error;
          });
        const reservations = lines.map(() => [] as Array<{ warehouseId: string; quantity: number }>);
        order.forEach((lineIndex, k) => (reservations[lineIndex] = reservedSorted[k] ?? []));

        let paymentIntentId: string | null = null;
        const methodId = input.paymentPending ? null : (input.paymentMethodId ?? null);
        if (methodId && totals.grandTotal > 0) {
          started = await authorizeOrderPayment(
            tx,
            ctx,
            provider,
            {
              paymentId: attemptRoot,
              orderId,
              amount: totals.grandTotal,
              currency: draft.currency,
              methodId,
              captureMode: settings.payments.capture,
              returnUrl: options.returnUrl ?? defaultReturnUrl(ctx),
              customerEmail: email,
              actionExpiryMinutes: settings.payments.actionExpiryMinutes,
            },
            {
              declined: (failure) => validationFailed([{ field: 'paymentMethodId', message: failure.message }]),
              unreachable: () => new AppError('SERVICE_UNAVAILABLE', 'The payment provider could not be reached; nothing was charged, try again'),
            },
          );
          paymentIntentId = started.providerReference;
        }

        const now = new Date();
        const paidAlready = totals.grandTotal === 0;
        const row: Omit<OrderRow, 'number' | 'lines'> = {
          id: orderId,
          organizationId,
          cartId: null,
          customerId: draft.customerId,
          customerEmail: email,
          status: paidAlready ? 'confirmed' : 'pending',
          paymentStatus: paidAlready ? 'paid' : 'awaiting_payment',
          currency: draft.currency,
          subtotal: BigInt(totals.subtotal),
          discountTotal: BigInt(totals.discountTotal),
          taxTotal: BigInt(totals.taxTotal),
          shippingTotal: BigInt(totals.shippingTotal),
          grandTotal: BigInt(totals.grandTotal),
          capturedAmount: 0n,
          refundedAmount: 0n,
          shippingAddress: address as unknown as Prisma.JsonObject,
          promotionCodes: [],
          customerGroupIds: groups,
          pricing: {
            promotions: [],
            freeShipping: false,
            shipping: settings.shipping,
            ...tax.pricing,
            draftOrderId: draft.id,
            manualDiscount: { amount: Number(draft.discountAmount), reason: draft.discountReason },
            customPrices: lines.flatMap((l, i) => (l.unitPrice === null ? [] : [{ position: i, unitPrice: l.unitPrice, reason: l.priceReason }])),
          } as unknown as Prisma.JsonObject,
          paymentProvider: started ? provider.name : null,
          paymentMethodId: input.paymentMethodId ?? null,
          paymentIntentId,
          idempotencyScope: null,
          idempotencyKey: null,
          idempotencyRequestHash: null,
          invoiceNumber: null,
          invoicedAt: null,
          placedAt: now,
          createdAt: now,
          updatedAt: now,
        };
        const orderLines: OrderLine[] = lines.map((l, i) => ({
          id: randomUUID(),
          organizationId,
          orderId,
          position: i,
          entityId: l.entityId,
          variantId: l.variantId,
          // As checkout copies a cart item's: a gift-card line's recipient (none: the order email).
          giftCardRecipient: giftCard[i] ? ((l.giftCardRecipient ?? null) as Prisma.JsonValue) : null,
          entityType: at(sellables, i).entityType,
          sku: at(sellables, i).sku,
          title: at(sellables, i).title,
          quantity: l.quantity,
          refundedQuantity: 0,
          fulfilledQuantity: 0,
          fulfillmentStatus: 'unfulfilled',
          unitPrice: BigInt(at(unitPrices, i)),
          totalPrice: BigInt(at(totals.lines, i).totalPrice),
          discountTotal: BigInt(at(totals.lines, i).discountTotal),
          taxClassId: at(rates, i).taxClassId,
          taxRateBps: priced.providerRates?.[i] ?? at(rates, i).rateBps,
          taxTotal: BigInt(at(totals.lines, i).taxTotal),
          reservations: at(reservations, i) as unknown as Prisma.JsonArray,
        }));
        const actor = actorRecord(ctx);
        const reason = options.reason ?? (input.paymentPending ? 'draft order, payment pending (invoice terms)' : 'draft order');
        const statusChanges: StatusChangeRow[] = [{ fromStatus: null, toStatus: 'pending', trigger: 'draft', reason, actorId: actor.id, actorKind: actor.kind, createdAt: now }];
        if (paidAlready)
          statusChanges.push({
            fromStatus: 'pending',
            toStatus: 'confirmed',
            trigger: 'payment',
            reason: 'nothing to pay',
            actorId: actor.id,
            actorKind: actor.kind,
            createdAt: new Date(now.getTime() + 1),
          });
        const shippingLines = shippingOption ? [shippingLineRow(organizationId, orderId, shippingOption, at(totals.shippingLines, 0), now)] : [];
        const view = { ...orderView({ ...row, number: '', lines: orderLines }), shippingLines: shippingLines.map(shippingLineView) };
        const write: OrderWrite = {
          order: row,
          lines: orderLines,
          shippingLines,
          statusChanges,
          cartId: null as unknown as string,
          numbering: { prefix: 'ORD', year: yearIn(now, settings.timezone) },
          event: { origin: originOf(ctx), payload: { order: orderPayload(view) } },
          ...(started ? { payment: started } : {}),
        };
        const number = await writeOrder(tx, write, true);
        // The link's hash stays: a second visit answers that the draft is completed, not that the link is unknown.
        await tx.draftOrder.update({ where: { id: draft.id }, data: { status: 'completed', orderId, completedAt: now } });
        return { order: { ...view, number }, paymentId: started ? (started as StartedPayment).id : null };
      },
      { timeout: payments.timeoutMs + 15_000 },
    );
  } catch (error) {
    // Charged, then rolled back: give the authorization back.
    await releaseAuthorization(ctx, provider, started as StartedPayment | null, 'draft completion');
    throw error;
  }
}
