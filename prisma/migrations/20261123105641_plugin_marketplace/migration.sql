-- CreateTable
CREATE TABLE "plugin_marketplace_vendors" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "status_reason" TEXT,
    "user_id" TEXT,
    "stripe_account_id" TEXT,
    "approved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_marketplace_vendors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_vendor_documents" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "vendor_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "media_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "reviewed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_marketplace_vendor_documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_commission_rules" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "vendor_id" UUID,
    "category_id" UUID,
    "rate_bps" INTEGER NOT NULL DEFAULT 0,
    "fixed_amount" BIGINT NOT NULL DEFAULT 0,
    "valid_from" TIMESTAMPTZ(3),
    "valid_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_marketplace_commission_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_sub_orders" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "vendor_id" UUID NOT NULL,
    "customer_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "currency" TEXT NOT NULL,
    "subtotal" BIGINT NOT NULL,
    "discount_total" BIGINT NOT NULL DEFAULT 0,
    "tax_total" BIGINT NOT NULL DEFAULT 0,
    "total" BIGINT NOT NULL,
    "commission_total" BIGINT NOT NULL,
    "net_amount" BIGINT NOT NULL,
    "tracking_number" TEXT,
    "carrier" TEXT,
    "cancel_reason" TEXT,
    "confirmed_at" TIMESTAMPTZ(3),
    "shipped_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_marketplace_sub_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_sub_order_lines" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "sub_order_id" UUID NOT NULL,
    "order_line_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "sku" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price" BIGINT NOT NULL,
    "total" BIGINT NOT NULL,
    "commission_amount" BIGINT NOT NULL,
    "commission_rule" JSONB NOT NULL,

    CONSTRAINT "plugin_marketplace_sub_order_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_ledger_entries" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "vendor_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "sub_order_id" UUID,
    "payout_id" UUID,
    "available_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_marketplace_ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_payouts" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "vendor_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "adapter" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "external_id" TEXT,
    "failure_reason" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "paid_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_marketplace_payouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_disputes" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "sub_order_id" UUID NOT NULL,
    "vendor_id" UUID NOT NULL,
    "customer_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "reason" TEXT NOT NULL,
    "response" TEXT,
    "resolution" TEXT,
    "refund_amount" BIGINT,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_marketplace_disputes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_returns" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "sub_order_id" UUID NOT NULL,
    "vendor_id" UUID NOT NULL,
    "customer_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'requested',
    "reason" TEXT NOT NULL,
    "lines" JSONB NOT NULL,
    "refund_amount" BIGINT NOT NULL,
    "tracking_number" TEXT,
    "carrier" TEXT,
    "received_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_marketplace_returns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_marketplace_reviews" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "vendor_id" UUID NOT NULL,
    "sub_order_id" UUID NOT NULL,
    "customer_id" TEXT NOT NULL,
    "rating" INTEGER NOT NULL,
    "text" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_marketplace_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "plugin_marketplace_vendors_organization_id_status_created_a_idx" ON "plugin_marketplace_vendors"("organization_id", "status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_marketplace_vendors_organization_id_user_id_key" ON "plugin_marketplace_vendors"("organization_id", "user_id");

-- CreateIndex
CREATE INDEX "plugin_marketplace_vendor_documents_organization_id_vendor__idx" ON "plugin_marketplace_vendor_documents"("organization_id", "vendor_id");

-- CreateIndex
CREATE INDEX "plugin_marketplace_commission_rules_organization_id_idx" ON "plugin_marketplace_commission_rules"("organization_id");

-- CreateIndex
CREATE INDEX "plugin_marketplace_sub_orders_organization_id_vendor_id_cre_idx" ON "plugin_marketplace_sub_orders"("organization_id", "vendor_id", "created_at");

-- CreateIndex
CREATE INDEX "plugin_marketplace_sub_orders_organization_id_status_create_idx" ON "plugin_marketplace_sub_orders"("organization_id", "status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_marketplace_sub_orders_order_id_vendor_id_key" ON "plugin_marketplace_sub_orders"("order_id", "vendor_id");

-- CreateIndex
CREATE INDEX "plugin_marketplace_sub_order_lines_organization_id_sub_orde_idx" ON "plugin_marketplace_sub_order_lines"("organization_id", "sub_order_id");

-- CreateIndex
CREATE INDEX "plugin_marketplace_ledger_entries_organization_id_vendor_id_idx" ON "plugin_marketplace_ledger_entries"("organization_id", "vendor_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_marketplace_ledger_entries_organization_id_reference_key" ON "plugin_marketplace_ledger_entries"("organization_id", "reference");

-- CreateIndex
CREATE INDEX "plugin_marketplace_payouts_organization_id_vendor_id_create_idx" ON "plugin_marketplace_payouts"("organization_id", "vendor_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_marketplace_payouts_organization_id_idempotency_key_key" ON "plugin_marketplace_payouts"("organization_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "plugin_marketplace_disputes_organization_id_vendor_id_creat_idx" ON "plugin_marketplace_disputes"("organization_id", "vendor_id", "created_at");

-- CreateIndex
CREATE INDEX "plugin_marketplace_returns_organization_id_vendor_id_create_idx" ON "plugin_marketplace_returns"("organization_id", "vendor_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_marketplace_reviews_sub_order_id_key" ON "plugin_marketplace_reviews"("sub_order_id");

-- CreateIndex
CREATE INDEX "plugin_marketplace_reviews_organization_id_vendor_id_status_idx" ON "plugin_marketplace_reviews"("organization_id", "vendor_id", "status", "created_at");

-- AddForeignKey
ALTER TABLE "plugin_marketplace_sub_order_lines" ADD CONSTRAINT "plugin_marketplace_sub_order_lines_sub_order_id_fkey" FOREIGN KEY ("sub_order_id") REFERENCES "plugin_marketplace_sub_orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
