-- CreateTable
CREATE TABLE "plugin_layaway_plans" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "customer_email" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "total" BIGINT NOT NULL,
    "deposit_amount" BIGINT NOT NULL,
    "paid_amount" BIGINT NOT NULL DEFAULT 0,
    "installments" JSONB NOT NULL DEFAULT '[]',
    "forfeit_policy" TEXT NOT NULL DEFAULT 'retain_deposit',
    "retained_amount" BIGINT,
    "refund_due" BIGINT,
    "forfeit_reason" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "order_id" UUID,
    "completed_at" TIMESTAMPTZ(3),
    "forfeited_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_layaway_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_layaway_lines" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "entity_type" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price" BIGINT NOT NULL,
    "total_price" BIGINT NOT NULL,
    "reservations" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "plugin_layaway_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_layaway_payments" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "method" TEXT NOT NULL,
    "reference" TEXT,
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_layaway_payments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "plugin_layaway_plans_order_id_key" ON "plugin_layaway_plans"("order_id");

-- CreateIndex
CREATE INDEX "plugin_layaway_plans_organization_id_status_created_at_idx" ON "plugin_layaway_plans"("organization_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "plugin_layaway_plans_status_expires_at_idx" ON "plugin_layaway_plans"("status", "expires_at");

-- CreateIndex
CREATE INDEX "plugin_layaway_lines_plan_id_idx" ON "plugin_layaway_lines"("plan_id");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_layaway_payments_plan_id_idempotency_key_key" ON "plugin_layaway_payments"("plan_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "plugin_layaway_lines" ADD CONSTRAINT "plugin_layaway_lines_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plugin_layaway_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "plugin_layaway_payments" ADD CONSTRAINT "plugin_layaway_payments_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plugin_layaway_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
