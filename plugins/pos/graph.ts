// The POS plugin's GraphQL types: what its routes answer, field by field as the services return
// them (REST bodies keep their shape). Operator, manager and creator ids are user ids (text,
// not UUIDs: better-auth's); the minted key and override token appear once, in these answers.
import { defineEnum } from '../../src/graphql/enums.js';
import { pluginObject } from '../../src/plugins/types.js';
import { OVERRIDE_ACTIONS, type ReturnApproval } from './auth.js';
import { REFUND_METHODS } from './returns.js';
import type { ExchangeView } from './exchanges.js';

let declared: ReturnType<typeof declare> | undefined;

/** The POS types, declared on first use: only an enabled plugin adds types to the schema. */
export function posTypes() {
  declared ??= declare();
  return declared;
}

function declare() {
  const ActionEnum = defineEnum('PosOverrideAction', OVERRIDE_ACTIONS, 'What a manager’s override authorizes.');
  const RefundMethodEnum = defineEnum('PosRefundMethod', REFUND_METHODS, 'How the till pays out a return.');
  const SettlementEnum = defineEnum(
    'PosExchangeSettlement',
    ['none', 'charge', 'refund'] as const,
    'How the difference of an exchange was settled: none (even), charged to the new payment method, refunded to the original payment.',
  );
  const money = (description: string) => ({ type: 'MinorUnits', description }) as const;

  const PinSetRef = pluginObject<{ operatorId: string; pinVersion: number; rotated: boolean; revokedShiftKeys: number }>(
    'PosPinSetResult',
    'An operator’s PIN, set or rotated (the PIN itself is never returned).',
    {
      operatorId: 'String',
      pinVersion: { type: 'Int', description: '1 for the first PIN, +1 per rotation' },
      rotated: 'Boolean',
      revokedShiftKeys: { type: 'Int', description: 'Shift keys minted with the old PIN, now revoked' },
    },
  );
  const ShiftRef = pluginObject<{ shiftId: string; operatorId: string; registerId: string; apiKeyId: string; scope: string; expiresAt: string; apiKey: string }>(
    'PosShift',
    'A register shift: the per-shift API key minted by PIN login (shown once).',
    {
      shiftId: 'UUID',
      operatorId: 'String',
      registerId: 'String',
      apiKeyId: 'String',
      scope: { type: 'String', description: 'The key’s API key scope (pos)' },
      expiresAt: 'DateTime',
      apiKey: { type: 'String', description: 'The key itself, shown only in this answer' },
    },
  );
  const ItemLineRef = pluginObject<ReturnApproval['lines'][number]>('PosItemLine', 'Units of a catalog entity (or one of its variants).', {
    entityId: 'UUID',
    variantId: 'UUID?',
    quantity: 'Int',
  });
  const ApprovalRef = pluginObject<ReturnApproval>('PosReturnApproval', 'What a no_receipt_return override approves: these lines, paying out at most amount.', {
    currency: 'String',
    amount: money('The most the return may pay out'),
    lines: { type: ItemLineRef, list: true },
  });
  const OverrideRef = pluginObject<{
    overrideId: string;
    action: string;
    managerId: string;
    requestedBy: string;
    registerId: string | null;
    expiresAt: string;
    approval?: ReturnApproval;
    token: string;
  }>('PosOverride', 'A manager’s single-use override token for one action (shown once).', {
    overrideId: 'UUID',
    action: ActionEnum,
    managerId: { type: 'String', description: 'User id of the manager whose PIN approved it (a better-auth id: text, so String, not UUID)' },
    requestedBy: { type: 'String', description: 'The cashier’s user or key that asked' },
    registerId: 'String?',
    expiresAt: 'DateTime',
    approval: { type: ApprovalRef, nullable: true, description: 'For no_receipt_return only: what it approves' },
    token: { type: 'String', description: 'The single-use token, shown only in this answer' },
  });
  const ReturnRef = pluginObject<{
    id: string;
    currency: string;
    lines: unknown;
    amount: number;
    refundMethod: string;
    overrideId: string | null;
    idempotencyKey: string;
    registerId: string | null;
    reason: string | null;
    createdBy: string | null;
    createdAt: string;
    replayed: boolean;
  }>('PosReturn', 'Goods taken back without a receipt, approved by a manager.', {
    id: 'UUID',
    currency: 'String',
    lines: { type: ItemLineRef, list: true },
    amount: money('Paid out'),
    refundMethod: RefundMethodEnum,
    overrideId: 'UUID?',
    idempotencyKey: 'String',
    registerId: 'String?',
    reason: 'String?',
    createdBy: 'String?',
    createdAt: 'DateTime',
    replayed: { type: 'Boolean', description: 'true when the same idempotencyKey answered a return already taken' },
  });
  const ExchangeRef = pluginObject<ExchangeView>('PosExchange', 'Lines of an order returned and a replacement order made, in one transaction.', {
    id: 'UUID',
    returnId: {
      type: 'UUID',
      nullable: true,
      description: 'The core return the exchange was made through (GET /api/returns/:id, status exchanged); null for exchanges made before POS used core exchanges',
    },
    originalOrderId: 'UUID',
    replacementOrderId: 'UUID',
    refundId: 'UUID?',
    currency: 'String',
    credit: money('Value of the returned lines'),
    replacementTotal: money('Total of the replacement order'),
    difference: { type: 'MinorUnits', description: 'replacementTotal − credit: charged when positive, refunded when negative' },
    settlement: SettlementEnum,
    providerReference: 'String?',
    idempotencyKey: 'String',
    registerId: 'String?',
    overrideIds: { type: '[UUID]', description: 'Overrides consumed (PosOverride ids)' },
    createdBy: 'String?',
    createdAt: 'DateTime',
    replayed: { type: 'Boolean', description: 'true when the same idempotencyKey answered an exchange already made' },
  });
  return { PinSetRef, ShiftRef, OverrideRef, ReturnRef, ExchangeRef };
}
