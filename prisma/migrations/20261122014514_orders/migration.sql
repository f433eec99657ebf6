-- CreateEnum
CREATE TYPE "cart_status" AS ENUM ('open', 'converted');

-- CreateEnum
CREATE TYPE "order_status" AS ENUM ('pending', 'confirmed', 'processing', 'partially_fulfilled', 'fulfilled', 'refunded', 'cancelled');

-- CreateEnum
CREATE TYPE "payment_status" AS ENUM ('awaiting_payment', 'paid', 'partially_refunded', 'refunded', 'voided');

-- CreateEnum
CREATE TYPE "line_fulfillment_status" AS ENUM ('unfulfilled', 'partially_fulfilled', 'fulfilled');

-- CreateEnum
CREATE TYPE "refund_status" AS ENUM ('pending', 'succeeded', 'failed', 'undone');

-- CreateTable
CREATE TABLE "carts" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "customer_id" TEXT,
    "token_hash" TEXT,
    "status" "cart_status" NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "carts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cart_items" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "cart_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "quantity" INTEGER NOT NULL,
    "unit_price_snapshot" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cart_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "number" TEXT NOT NULL,
    "cart_id" UUID,
    "customer_id" TEXT,
    "customer_email" TEXT,
    "status" "order_status" NOT NULL DEFAULT 'pending',
    "payment_status" "payment_status" NOT NULL DEFAULT 'awaiting_payment',
    "currency" TEXT NOT NULL,
    "subtotal" BIGINT NOT NULL,
    "discount_total" BIGINT NOT NULL DEFAULT 0,
    "tax_total" BIGINT NOT NULL DEFAULT 0,
    "shipping_total" BIGINT NOT NULL DEFAULT 0,
    "grand_total" BIGINT NOT NULL,
    "captured_amount" BIGINT NOT NULL DEFAULT 0,
    "refunded_amount" BIGINT NOT NULL DEFAULT 0,
    "shipping_address" JSONB,
    "promotion_codes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "customer_group_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "pricing" JSONB NOT NULL DEFAULT '{}',
    "payment_provider" TEXT,
    "payment_method_id" TEXT,
    "payment_intent_id" TEXT,
    "idempotency_scope" TEXT,
    "idempotency_key" TEXT,
    "invoice_number" TEXT,
    "invoiced_at" TIMESTAMPTZ(3),
    "placed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_lines" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "entity_type" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "refunded_quantity" INTEGER NOT NULL DEFAULT 0,
    "fulfilled_quantity" INTEGER NOT NULL DEFAULT 0,
    "fulfillment_status" "line_fulfillment_status" NOT NULL DEFAULT 'unfulfilled',
    "unit_price" BIGINT NOT NULL,
    "total_price" BIGINT NOT NULL,
    "discount_total" BIGINT NOT NULL DEFAULT 0,
    "tax_class_id" UUID,
    "tax_rate_bps" INTEGER NOT NULL DEFAULT 0,
    "tax_total" BIGINT NOT NULL DEFAULT 0,
    "reservations" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "order_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_status_changes" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "from_status" "order_status",
    "to_status" "order_status" NOT NULL,
    "trigger" TEXT NOT NULL,
    "reason" TEXT,
    "actor_id" TEXT,
    "actor_kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_status_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_notes" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "body" TEXT NOT NULL,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "author_id" TEXT,
    "author_kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_refunds" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT,
    "status" "refund_status" NOT NULL DEFAULT 'pending',
    "operator_id" TEXT NOT NULL,
    "operator_kind" TEXT NOT NULL,
    "operator_day" TEXT NOT NULL,
    "undo_deadline" TIMESTAMPTZ(3) NOT NULL,
    "undone_at" TIMESTAMPTZ(3),
    "undone_by" TEXT,
    "provider_refund_id" TEXT,
    "failure_reason" TEXT,
    "settled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_refund_lines" (
    "refund_id" UUID NOT NULL,
    "line_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "order_refund_lines_pkey" PRIMARY KEY ("refund_id","line_id")
);

-- CreateTable
CREATE TABLE "order_fulfillments" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "carrier" TEXT,
    "tracking_number" TEXT,
    "tracking_url" TEXT,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_fulfillments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_fulfillment_lines" (
    "fulfillment_id" UUID NOT NULL,
    "line_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,

    CONSTRAINT "order_fulfillment_lines_pkey" PRIMARY KEY ("fulfillment_id","line_id")
);

-- CreateTable
CREATE TABLE "order_counters" (
    "organization_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "year" INTEGER NOT NULL,
    "value" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "order_counters_pkey" PRIMARY KEY ("organization_id","kind","year")
);

-- CreateTable
CREATE TABLE "payment_events" (
    "provider" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "organization_id" UUID,
    "type" TEXT NOT NULL,
    "order_id" UUID,
    "outcome" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_events_pkey" PRIMARY KEY ("provider","event_id")
);

-- CreateIndex
CREATE INDEX "carts_organization_id_customer_id_created_at_idx" ON "carts"("organization_id", "customer_id", "created_at");

-- CreateIndex
CREATE INDEX "cart_items_cart_id_created_at_idx" ON "cart_items"("cart_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "orders_cart_id_key" ON "orders"("cart_id");

-- CreateIndex
CREATE INDEX "orders_organization_id_status_placed_at_idx" ON "orders"("organization_id", "status", "placed_at");

-- CreateIndex
CREATE INDEX "orders_organization_id_placed_at_idx" ON "orders"("organization_id", "placed_at");

-- CreateIndex
CREATE INDEX "orders_organization_id_customer_id_placed_at_idx" ON "orders"("organization_id", "customer_id", "placed_at");

-- CreateIndex
CREATE INDEX "orders_payment_intent_id_idx" ON "orders"("payment_intent_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_organization_id_number_key" ON "orders"("organization_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "orders_organization_id_idempotency_scope_idempotency_key_key" ON "orders"("organization_id", "idempotency_scope", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "orders_organization_id_invoice_number_key" ON "orders"("organization_id", "invoice_number");

-- CreateIndex
CREATE INDEX "order_lines_order_id_position_idx" ON "order_lines"("order_id", "position");

-- CreateIndex
CREATE INDEX "order_status_changes_order_id_created_at_idx" ON "order_status_changes"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "order_notes_order_id_pinned_created_at_idx" ON "order_notes"("order_id", "pinned", "created_at");

-- CreateIndex
CREATE INDEX "order_refunds_order_id_created_at_idx" ON "order_refunds"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "order_refunds_organization_id_operator_id_operator_day_idx" ON "order_refunds"("organization_id", "operator_id", "operator_day");

-- CreateIndex
CREATE INDEX "order_refunds_status_undo_deadline_idx" ON "order_refunds"("status", "undo_deadline");

-- CreateIndex
CREATE INDEX "order_refund_lines_line_id_idx" ON "order_refund_lines"("line_id");

-- CreateIndex
CREATE INDEX "order_fulfillments_order_id_created_at_idx" ON "order_fulfillments"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "order_fulfillment_lines_line_id_idx" ON "order_fulfillment_lines"("line_id");

-- CreateIndex
CREATE INDEX "payment_events_organization_id_received_at_idx" ON "payment_events"("organization_id", "received_at");

-- AddForeignKey
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_cart_id_fkey" FOREIGN KEY ("cart_id") REFERENCES "carts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_status_changes" ADD CONSTRAINT "order_status_changes_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_refund_lines" ADD CONSTRAINT "order_refund_lines_refund_id_fkey" FOREIGN KEY ("refund_id") REFERENCES "order_refunds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_refund_lines" ADD CONSTRAINT "order_refund_lines_line_id_fkey" FOREIGN KEY ("line_id") REFERENCES "order_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_fulfillments" ADD CONSTRAINT "order_fulfillments_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_fulfillment_lines" ADD CONSTRAINT "order_fulfillment_lines_fulfillment_id_fkey" FOREIGN KEY ("fulfillment_id") REFERENCES "order_fulfillments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_fulfillment_lines" ADD CONSTRAINT "order_fulfillment_lines_line_id_fkey" FOREIGN KEY ("line_id") REFERENCES "order_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Invariants Prisma cannot express: quantities and money stay within their bounds whatever
-- writes them.
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_quantity_positive" CHECK ("quantity" > 0);
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_snapshot_nonnegative" CHECK ("unit_price_snapshot" >= 0);
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_quantities" CHECK ("quantity" > 0 AND "refunded_quantity" BETWEEN 0 AND "quantity" AND "fulfilled_quantity" BETWEEN 0 AND "quantity");
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_amounts" CHECK ("unit_price" >= 0 AND "total_price" >= 0 AND "discount_total" BETWEEN 0 AND "total_price" AND "tax_total" >= 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts" CHECK ("subtotal" >= 0 AND "discount_total" >= 0 AND "tax_total" >= 0 AND "shipping_total" >= 0 AND "grand_total" >= 0 AND "captured_amount" >= 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunds_within_capture" CHECK ("refunded_amount" >= 0 AND "refunded_amount" <= "captured_amount");
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "order_refund_lines" ADD CONSTRAINT "order_refund_lines_quantity_positive" CHECK ("quantity" > 0 AND "amount" >= 0);
ALTER TABLE "order_fulfillment_lines" ADD CONSTRAINT "order_fulfillment_lines_quantity_positive" CHECK ("quantity" > 0);
