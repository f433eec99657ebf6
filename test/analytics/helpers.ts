// Analytics fixtures: orders written straight into the test database with chosen instants and
// amounts (the order flow itself is tested in test/orders; here the numbers must be exact).
import { randomUUID } from 'node:crypto';
import type { TestApp } from '../support/app.js';

let seq = 0;

export interface SeedOrder {
  placedAt: Date;
  grandTotal: number;
  taxTotal?: number;
  status?: 'pending' | 'confirmed' | 'processing' | 'fulfilled' | 'cancelled';
  paymentStatus?: 'awaiting_payment' | 'paid' | 'refunded';
  customerId?: string | null;
  customerEmail?: string | null;
  lines?: Array<{ sku: string; quantity: number; unitPrice: number; taxRateBps?: number; taxTotal?: number }>;
}

export async function seedOrder(t: TestApp, organizationId: string, o: SeedOrder): Promise<string> {
  seq += 1;
  const id = randomUUID();
  const lines = o.lines ?? [{ sku: 'SKU-1', quantity: 1, unitPrice: o.grandTotal - (o.taxTotal ?? 0) }];
  const subtotal = lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0);
  await t.app.db.order.create({
    data: {
      id,
      organizationId,
      number: `ORD-2026-${String(900000 + seq).padStart(6, '0')}-${process.pid}`.slice(0, 40),
      customerId: o.customerId ?? null,
      customerEmail: o.customerEmail ?? 'buyer@example.com',
      status: o.status ?? 'confirmed',
      paymentStatus: o.paymentStatus ?? 'paid',
      currency: 'USD',
      subtotal: BigInt(subtotal),
      taxTotal: BigInt(o.taxTotal ?? 0),
      grandTotal: BigInt(o.grandTotal),
      capturedAmount: BigInt(o.grandTotal),
      placedAt: o.placedAt,
      lines: {
        create: lines.map((l, i) => ({
          organizationId,
          position: i,
          entityId: randomUUID(),
          entityType: 'product',
          sku: l.sku,
          title: l.sku,
          quantity: l.quantity,
          unitPrice: BigInt(l.unitPrice),
          totalPrice: BigInt(l.unitPrice * l.quantity),
          taxRateBps: l.taxRateBps ?? 0,
          taxTotal: BigInt(l.taxTotal ?? 0),
        })),
      },
    },
  });
  return id;
}

export async function newOrganization(t: TestApp): Promise<{ id: string; admin: string }> {
  const org = await t.app.db.organization.create({ data: { slug: `org-${randomUUID().slice(0, 8)}`, name: 'Other shop' } });
  return { id: org.id, admin: await t.apiKey('admin', { organizationId: org.id }) };
}
