// The checkout ports (ports.ts) on the services of the inventory, pricing, promotions and tax
// modules (ctx.services). Each call runs on the ServiceContext it is given, whose db is the
// caller's transaction.
import type { Services } from '../../services.js';
import type { CheckoutPorts, Redemption } from './ports.js';
import { distinctStockKeys } from '../inventory/reserve-lines.js';

export function portsOf(services: Services): CheckoutPorts {
  return {
    prices: {
      async resolve(ctx, queries) {
        if (!queries.length) return [];
        // One resolver call per (currency, groups) context; checkout and carts send one.
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        const first = queries[0]!;
        const resolved = await services.pricing.resolvePrices(
          ctx,
          { currency: first.currency, customerGroupIds: first.customerGroupIds },
          queries.map((q) => ({ entityId: q.entityId, variantId: q.variantId, quantity: q.quantity })),
        );
        return resolved.map((price) => (price ? Number(price.unitAmount) : null));
      },
      inputsSql: (organizationId, on, at) => services.pricing.priceInputsSql(organizationId, on, at),
      fromInputs(row, queries, at) {
        if (!queries.length) return [];
        // biome-ignore lint/style/noNonNullAssertion: checked non-empty above
        const currency = queries[0]!.currency;
        return services.pricing.pricesFrom(row, currency, queries, at).map((price) => (price ? Number(price.unitAmount) : null));
      },
    },
    taxes: {
      async resolve(ctx, lines) {
        const rates = await services.tax.resolveTaxRates(
          ctx,
          lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId, destination: l.destination ?? null })),
        );
        return rates.map((r) => ({ taxClassId: r.taxClassId, rateBps: r.rateBps }));
      },
    },
    promotions: {
      async redeem(ctx, input) {
        const out: Redemption = { discountTotal: 0, lineDiscounts: [], freeShipping: false, applied: [] };
        // One after another: nested transactions on one connection cannot run concurrently.
        for (const code of input.codes) {
          const r = await services.promotions.redeem(ctx, {
            code,
            currency: input.currency,
            subtotal: input.subtotal,
            lineItems: input.lineItems,
            customerId: input.customerId,
            customerGroupIds: input.customerGroupIds,
            orderId: input.orderId,
            reference: `order:${input.orderId}`,
          });
          const amount = Number(r.discount);
          out.discountTotal += amount;
          out.freeShipping ||= r.freeShipping;
          // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
          for (const line of r.lines) out.lineDiscounts!.push({ index: line.index, amount: Number(line.discount) });
          // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
          out.applied.push({ code: r.code, promotionId: r.promotionId!, type: r.type!, amount, redemptionId: r.redemptionId });
        }
        return out;
      },
      async release(ctx, redemptionIds) {
        for (const id of redemptionIds) await services.promotions.release(ctx, id);
      },
    },
    inventory: {
      async reserve(ctx, lines) {
        // All lines in one statement when each names its own stock (the usual cart); a pair
        // named twice goes line by line, so the second line's choice sees the first's reservation.
        if (distinctStockKeys(lines)) return (await services.inventory.reserveLines(ctx, lines)).map((r) => [r]);
        const reserved = await services.inventory.reserveMany(
          ctx,
          lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId, quantity: l.quantity, reference: l.reference, warehouseId: l.warehouseId ?? null })),
        );
        return reserved.map((r) => [{ warehouseId: r.warehouseId, quantity: r.quantity }]);
      },
      async release(ctx, moves) {
        for (const m of moves) await services.inventory.release(ctx, m);
      },
      async commit(ctx, moves) {
        for (const m of moves) await services.inventory.consume(ctx, m);
      },
    },
  };
}
