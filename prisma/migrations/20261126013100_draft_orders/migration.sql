-- Draft orders (issue 27): staff-built orders completed into real orders.
CREATE TABLE "draft_orders" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "customer_id" TEXT,
    "email" TEXT,
    "currency" TEXT NOT NULL,
    "lines" JSONB NOT NULL,
    "discount_amount" BIGINT NOT NULL DEFAULT 0,
    "discount_reason" TEXT,
    "shipping_address" JSONB,
    "shipping_method_id" UUID,
    "note" TEXT,
    "order_id" UUID,
    "created_by_id" TEXT,
    "created_by_kind" TEXT NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "draft_orders_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "draft_orders_order_id_key" ON "draft_orders"("order_id");
CREATE INDEX "draft_orders_organization_id_created_at_id_idx" ON "draft_orders"("organization_id", "created_at", "id");
