// The point-of-sale plugin: operators sign in at a register with a PIN and get a per-shift API
// key; a manager's PIN authorizes one named action through a single-use override token; an
// exchange is a core exchange (src/modules/returns) made at the counter in one transaction.
// Routes under /api/pos (README.md has the flow and the rules). Enable it with
// `plugins: [pos()]` in commerce.config.ts.
import { z } from 'zod';
import { definePlugin, type Plugin } from '../../src/plugins/index.js';
import { pluginInput } from '../../src/plugins/types.js';
import { money } from '../../src/graphql/zod-args.js';
import { createOverride, OVERRIDE_ACTIONS, pinLogin, setPin, SHIFT_SCOPE, type PosAuthOptions } from './auth.js';
import { createExchange } from './exchanges.js';
import { posTypes } from './graph.js';
import { createNoReceiptReturn, REFUND_METHODS } from './returns.js';
import { PIN_PATTERN } from './pin.js';

export interface PosOptions {
  /** Lifetime of a shift key when the login does not say (minutes, default 480: one shift). */
  shiftMinutes?: number;
  /** Consecutive wrong PINs that lock an operator id (default 5). */
  maxFailures?: number;
  /** Wrong PINs per operator id per window (default 10 per 60 s); past it 429 before any check. */
  pinAttempts?: { points: number; durationSeconds: number };
  /** Lifetime of a manager's override token (seconds, default 120). */
  overrideTtlSeconds?: number;
  /** Largest difference a cashier may refund in an exchange without a manager (minor units, default 5000). */
  cashierRefundCap?: number;
}

const MIN_SHIFT_MINUTES = 15; // the scope's minimum expiry: 1/96 day
const MAX_SHIFT_MINUTES = 24 * 60;
const pin = z.string().regex(PIN_PATTERN, 'must be 4 to 8 digits');
const id = z.string().trim().min(1).max(100);
const currency = z.string().regex(/^[A-Z]{3}$/);
/** Goods taken back without a receipt: what a no_receipt_return override approves and what the return takes. */
const returnLine = z.object({ entityId: z.uuid(), variantId: z.uuid().nullish(), quantity: z.number().int().min(1).max(1000) }).strict();
/** A line of the order an exchange takes back. */
const exchangeReturnLine = z.object({ lineItemId: z.uuid(), quantity: z.number().int().min(1).max(10_000) }).strict();
/** A replacement line of an exchange; a unitPrice off the price list needs a price_override token. */
const exchangeNewLine = z.object({ entityId: z.uuid(), variantId: z.uuid().nullish(), quantity: z.number().int().min(1).max(10_000), unitPrice: money().nullish() }).strict();

export function pos(options: PosOptions = {}): Plugin {
  const auth: PosAuthOptions = {
    shiftMinutes: options.shiftMinutes ?? 480,
    maxFailures: options.maxFailures ?? 5,
    pinAttempts: options.pinAttempts ?? { points: 10, durationSeconds: 60 },
    overrideTtlSeconds: options.overrideTtlSeconds ?? 120,
  };
  const exchange = { cashierRefundCap: options.cashierRefundCap ?? 5000 };

  return definePlugin({
    id: 'pos',
    version: '1.0.0',
    schema: 'plugins/pos/schema.prisma',
    permissions: [
      { scope: 'pos:admin', description: "Set and rotate operators' PINs" },
      { scope: 'pos:operate', description: 'Sign in at a register with a PIN; ask a manager for an override' },
      { scope: 'pos:manage', description: 'Make exchanges; as a user role, authorize overrides with a PIN' },
    ],
    apiKeyScopes: {
      [SHIFT_SCOPE]: {
        prefix: 'cs_pos_shift_',
        description: 'Per-shift register key minted by POST /api/pos/auth/pin-login (pos:operate); revoked when the PIN rotates.',
        permissions: { pos: ['operate'] },
        keyExpiration: { minExpiresIn: 1 / 96, maxExpiresIn: 1 },
      },
    },
    routes(ctx) {
      const r = ctx.routes({ tag: 'pos', prefix: '/pos' });
      const { PinSetRef, ShiftRef, OverrideRef, ReturnRef, ExchangeRef } = posTypes();
      // List items as GraphQL input objects (they were JSONObject), declared with the routes:
      // only an enabled plugin adds types.
      const returnLines = z
        .array(pluginInput('PosReturnLineInput', 'Goods taken back without a receipt: a catalog entity (and variant) and a quantity', returnLine))
        .min(1)
        .max(50);
      const ExchangeReturnLineInput = pluginInput('PosExchangeReturnLineInput', 'A quantity of one line of the original order, taken back', exchangeReturnLine);
      const ExchangeNewLineInput = pluginInput(
        'PosExchangeNewLineInput',
        'A replacement line: a catalog entity (and variant), a quantity and optionally a unit price (integer minor units) off the price list',
        exchangeNewLine,
      );
      r.put('/auth/pin')
        .name('posPinSet')
        .output(PinSetRef)
        .summary("Set or rotate an operator's PIN")
        .description(
          "The operator is a staff user of the organization. Rotating revokes every shift key minted with the old PIN and clears the operator's lockout. The PIN is stored as a salted scrypt hash and never returned.",
        )
        .permission('pos:admin')
        .input({ operatorId: id, pin })
        .audit({
          event: (_input, result) => ((result as { rotated: boolean }).rotated ? 'pos.pinRotate' : 'pos.pinSet'),
          entityType: 'pos_operator',
          entityId: (input) => input.operatorId,
        })
        .handler(({ input, ctx: rctx }) => setPin(rctx, input));
      r.post('/auth/pin-login')
        .name('posPinLogin')
        .output(ShiftRef)
        .summary('Sign an operator in at a register: a per-shift API key, shown once')
        .description(
          `The key (prefix cs_pos_shift_, scope pos, permission pos:operate) expires after shiftMinutes (${MIN_SHIFT_MINUTES}–${MAX_SHIFT_MINUTES}, default ${auth.shiftMinutes}). ` +
            `An unknown operator, an operator without a PIN and a wrong PIN get the same 401; ${auth.pinAttempts.points} wrong PINs per operator id per ${auth.pinAttempts.durationSeconds} s, then 429, ` +
            `and ${auth.maxFailures} wrong PINs in a row lock the operator id (403) until a pos:admin sets a new PIN.`,
        )
        .permission('pos:operate')
        .input({ operatorId: id, pin, registerId: id, shiftMinutes: z.number().int().min(MIN_SHIFT_MINUTES).max(MAX_SHIFT_MINUTES).nullish() })
        // Its own transactions: a wrong PIN is counted (and a lock audited) although the call fails.
        .audit(false)
        .handler(({ input, ctx: rctx }) => pinLogin(rctx, auth, input));
      r.post('/auth/override')
        .name('posOverrideCreate')
        .output(OverrideRef)
        .summary("A manager's PIN authorizes one named action: a single-use override token")
        .description(
          `Actions: ${OVERRIDE_ACTIONS.join(', ')}. The manager must hold pos:manage through their role. The token is valid for ${auth.overrideTtlSeconds} s and one use ` +
            "(POST /api/pos/exchanges takes priceOverrideToken and refundOverrideToken, POST /api/pos/returns a no_receipt_return token); the grant and the use are audited with both actors. Wrong PINs count toward the manager's lockout as at login. " +
            'A no_receipt_return override approves a definite return: `currency`, `amount` (the most it may pay out) and `lines` are required for it (and only for it), and the return that uses the token must take exactly those lines and quantities, within the amount (403 otherwise, the token kept).',
        )
        .permission('pos:operate')
        .input({
          managerId: id,
          pin,
          action: z.enum(OVERRIDE_ACTIONS),
          reason: z.string().max(500).nullish(),
          registerId: id.nullish(),
          currency: currency.nullish(),
          amount: money().nullish(),
          lines: returnLines.nullish(),
        })
        .audit(false)
        .handler(({ input, ctx: rctx }) => createOverride(rctx, auth, input));
      r.post('/returns')
        .name('posReturnCreate')
        .output(ReturnRef)
        .summary('Take goods back without a receipt, approved by a manager (no_receipt_return override)')
        .description(
          'The goods go back into stock and their price-list value in `currency` is paid out (`refundMethod` cash or store_credit), in one transaction with the consumption of `overrideToken` ' +
            "(a manager's no_receipt_return token: unknown, expired or for another action 422, used 409; lines or an amount it does not approve 403). The same idempotencyKey again answers the return already taken (replayed: true).",
        )
        .permission('pos:operate')
        .input({
          currency,
          lines: returnLines,
          refundMethod: z.enum(REFUND_METHODS).default('cash'),
          overrideToken: z.string().min(1).max(200),
          idempotencyKey: z.string().min(1).max(200),
          registerId: id.nullish(),
          reason: z.string().max(500).nullish(),
        })
        .audit({ event: 'pos.returnCreate', entityType: 'pos_return', entityId: (_input, result) => (result as { id: string }).id })
        .handler(({ input, ctx: rctx }) => createNoReceiptReturn(rctx as never, input));
      r.post('/exchanges')
        .name('posExchangeCreate')
        .output(ExchangeRef)
        .summary('Return lines of an order and make the replacement order, in one transaction')
        .description(
          'A core exchange (GET /api/returns/:id, returnId) opened, approved, received and settled at the counter in one transaction. Returned lines must have been handed over (fulfilled) and not refunded. ' +
            'The difference (replacement total − credit for the returned lines) is charged to paymentMethodId (a payment pending until the provider confirms it, as at checkout) or refunded to the original payment through the refund service (undo window, daily cap); ' +
            `a refund over ${exchange.cashierRefundCap} needs refundOverrideToken (refund_over_cap), a unit price off the price list priceOverrideToken (price_override). A replacement the credit pays is handed over (fulfilled) at once. ` +
            'Any refusal (422/409 with details.reason or the fields) leaves nothing written; the same idempotencyKey again answers the exchange already made (replayed: true).',
        )
        .permission('pos:manage')
        .permission('orders:update')
        .permission('orders:create')
        .input({
          orderId: z.string().min(1).max(64).describe('Order UUID or number (ORD-YYYY-NNNNNN) of the original order'),
          returnLines: z.array(ExchangeReturnLineInput).min(1).max(100),
          newLines: z.array(ExchangeNewLineInput).min(1).max(100),
          paymentMethodId: z.string().min(1).max(200).nullish(),
          idempotencyKey: z.string().min(1).max(200),
          priceOverrideToken: z.string().min(1).max(200).nullish(),
          refundOverrideToken: z.string().min(1).max(200).nullish(),
          registerId: id.nullish(),
          reason: z.string().max(500).nullish(),
        })
        .audit({ event: 'pos.exchangeCreate', entityType: 'pos_exchange', entityId: (_input, result) => (result as { id: string }).id })
        .handler(({ input, ctx: rctx }) => createExchange(rctx as never, exchange, input));
    },
  });
}
