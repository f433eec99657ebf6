-- Payment records (issue 26): one order → many payments, each with what the provider authorized,
-- captured and refunded. The order's payment_status is derived from its payments (payments/status.ts).
CREATE TYPE "payment_record_status" AS ENUM ('pending', 'requires_action', 'authorized', 'captured', 'partially_captured', 'voided', 'failed', 'refunded', 'partially_refunded');
CREATE TYPE "capture_mode" AS ENUM ('automatic', 'manual', 'on_fulfilment');

CREATE TABLE "payments" (
  "id" UUID NOT NULL,
  "organization_id" UUID NOT NULL,
  "order_id" UUID NOT NULL,
  "provider" TEXT NOT NULL,
  -- What the shopper paid with: the provider's method id/type (pm_card_visa, scheme, ...).
  "method" TEXT,
  "currency" TEXT NOT NULL,
  "amount" BIGINT NOT NULL,
  "authorized_amount" BIGINT NOT NULL DEFAULT 0,
  "captured_amount" BIGINT NOT NULL DEFAULT 0,
  "refunded_amount" BIGINT NOT NULL DEFAULT 0,
  "status" "payment_record_status" NOT NULL DEFAULT 'pending',
  "capture_mode" "capture_mode" NOT NULL DEFAULT 'automatic',
  "provider_reference" TEXT,
  "next_action" JSONB,
  -- When the authorization lapses (provider-reported), and whether it did.
  "expires_at" TIMESTAMPTZ(3),
  "expired" BOOLEAN NOT NULL DEFAULT false,
  "failure_code" TEXT,
  "failure_message" TEXT,
  -- Sequence numbers of captures and voids sent, part of their idempotency keys.
  "capture_count" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "payments_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "payments_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "payments_amounts_check" CHECK ("captured_amount" >= 0 AND "refunded_amount" >= 0 AND "refunded_amount" <= "captured_amount" AND "captured_amount" <= GREATEST("authorized_amount", "amount"))
);
CREATE INDEX "payments_order_id_created_at_idx" ON "payments"("order_id", "created_at");
CREATE INDEX "payments_organization_id_created_at_idx" ON "payments"("organization_id", "created_at");
CREATE UNIQUE INDEX "payments_provider_provider_reference_key" ON "payments"("provider", "provider_reference");

-- A refund is paid out against the payments it came from: one allocation per payment.
CREATE TABLE "payment_refunds" (
  "id" UUID NOT NULL,
  "organization_id" UUID NOT NULL,
  "refund_id" UUID NOT NULL,
  "payment_id" UUID NOT NULL,
  "amount" BIGINT NOT NULL,
  "status" "refund_status" NOT NULL DEFAULT 'pending',
  -- Incremented on each retry after a refusal: part of the idempotency key, so a retry after a
  -- lost answer reuses the key and a retry after a refusal asks again.
  "attempt" INTEGER NOT NULL DEFAULT 1,
  "provider_reference" TEXT,
  "failure_code" TEXT,
  "failure_message" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "settled_at" TIMESTAMPTZ(3),
  CONSTRAINT "payment_refunds_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "payment_refunds_refund_id_fkey" FOREIGN KEY ("refund_id") REFERENCES "order_refunds"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "payment_refunds_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "payment_refunds_refund_id_idx" ON "payment_refunds"("refund_id");
CREATE INDEX "payment_refunds_payment_id_idx" ON "payment_refunds"("payment_id");

ALTER TABLE "payment_events" ADD COLUMN "payment_id" UUID;

-- Backfill: one payment per order that has a payment intent, its state from the order's.
INSERT INTO "payments" ("id", "organization_id", "order_id", "provider", "method", "currency", "amount", "authorized_amount", "captured_amount", "refunded_amount", "status", "provider_reference", "created_at", "updated_at")
SELECT gen_random_uuid(), o."organization_id", o."id", COALESCE(o."payment_provider", 'unknown'), o."payment_method_id", o."currency", o."grand_total",
  CASE WHEN o."payment_status" = 'awaiting_payment' THEN 0 ELSE GREATEST(o."grand_total", o."captured_amount") END,
  o."captured_amount",
  LEAST(o."captured_amount", (SELECT COALESCE(SUM(r."amount"), 0) FROM "order_refunds" r WHERE r."order_id" = o."id" AND r."status" = 'succeeded')),
  (CASE o."payment_status"
    WHEN 'awaiting_payment' THEN 'pending'
    WHEN 'partially_paid' THEN 'captured'
    WHEN 'paid' THEN 'captured'
    WHEN 'partially_refunded' THEN 'partially_refunded'
    WHEN 'refunded' THEN 'refunded'
    WHEN 'voided' THEN 'voided'
  END)::"payment_record_status",
  o."payment_intent_id", o."placed_at", o."updated_at"
FROM "orders" o
WHERE o."payment_intent_id" IS NOT NULL;
