// Store credit operations: GET /me/store-credit, GET and POST /customers/:id/store-credit.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { money } from '../../graphql/zod-args.js';
import { currencySchema } from '../pricing/shared.js';
import { customerStoreCredit, myStoreCredit, staffMoveStoreCredit, type StoreCreditView, type StoreCreditBalanceView } from './service.js';
import type { StoreCreditEntryView } from './ledger.js';

export const StoreCreditEntryRef = builder.objectRef<StoreCreditEntryView>('StoreCreditEntry').implement({
  description: "One move of a customer's store credit.",
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    currency: t.exposeString('currency'),
    amount: t.expose('amount', { type: 'MinorUnits', description: 'Signed: credits positive, debits negative' }),
    balanceAfter: t.expose('balanceAfter', { type: 'MinorUnits' }),
    reason: t.exposeString('reason'),
    sourceType: t.exposeString('sourceType', { description: 'What moved it: staff, checkout, refund, return, order_edit...' }),
    sourceId: t.exposeString('sourceId', { nullable: true, description: 'The id of that source (an order, a return...)' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const StoreCreditBalanceRef = builder.objectRef<StoreCreditBalanceView>('StoreCreditBalance').implement({
  fields: (t) => ({
    currency: t.exposeString('currency'),
    balance: t.expose('balance', { type: 'MinorUnits' }),
  }),
});

export const StoreCreditRef = builder.objectRef<StoreCreditView>('StoreCredit').implement({
  description: "A customer's store credit: a balance per currency and the latest ledger entries, newest first.",
  fields: (t) => ({
    customerId: t.expose('customerId', { type: 'UUID' }),
    balances: t.expose('balances', { type: [StoreCreditBalanceRef], description: 'One per currency the customer ever had credit in' }),
    entries: t.expose('entries', { type: [StoreCreditEntryRef], description: 'The latest 100 entries, newest first' }),
  }),
});

const SESSION_NOTE = 'Needs a signed-in customer session (cookie or its bearer token): 401 without one, 403 for an API key.';
const customerId = z.guid().describe("Customer UUID (their account's user id, as Customer.id)");

defineOperation({
  name: 'meStoreCredit',
  kind: 'query',
  summary: "The signed-in customer's store credit: balances and ledger",
  description: SESSION_NOTE,
  rest: { method: 'GET', path: '/me/store-credit' },
  access: { permission: 'customers:read:self', customerSession: true },
  input: {},
  output: StoreCreditRef,
  resolve: (ctx) => myStoreCredit(ctx),
});

defineOperation({
  name: 'customerStoreCredit',
  kind: 'query',
  summary: "A customer's store credit: balances and ledger",
  rest: { method: 'GET', path: '/customers/:id/store-credit' },
  access: { anyPermission: ['storecredit:read', 'storecredit:manage'] },
  input: { id: customerId },
  output: StoreCreditRef,
  resolve: (ctx, input) => customerStoreCredit(ctx, input.id),
});

defineOperation({
  name: 'customerStoreCreditMove',
  kind: 'mutation',
  summary: "Credit or debit a customer's store credit",
  description:
    'type credit adds amount, debit takes it (409 with reason INSUFFICIENT_STORE_CREDIT when the balance is short: it never goes ' +
    'negative). The reason is shown to the customer. Emits storecredit.move.',
  rest: { method: 'POST', path: '/customers/:id/store-credit' },
  access: { permission: 'storecredit:manage' },
  input: {
    id: customerId,
    type: z.enum(['credit', 'debit']),
    amount: money().min(1, 'must be > 0').describe('Minor units, > 0'),
    currency: currencySchema,
    reason: z.string().trim().min(1).max(500),
  },
  output: StoreCreditRef,
  resolve: (ctx, input) => staffMoveStoreCredit(ctx, input.id, input),
  audit: {
    event: 'storecredit.move',
    entityType: 'customer',
    entityId: (input) => input.id,
    after: (s) => ({ customerId: s.customerId, balances: s.balances.map((b) => ({ currency: b.currency, balance: Number(b.balance) })) }),
  },
});
