-- CreateTable
CREATE TABLE "plugin_pos_returns" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "lines" JSONB NOT NULL,
    "amount" BIGINT NOT NULL,
    "refund_method" TEXT NOT NULL,
    "override_id" UUID NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "register_id" TEXT,
    "reason" TEXT,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_pos_returns_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "plugin_pos_returns_organization_id_created_at_idx" ON "plugin_pos_returns"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_pos_returns_organization_id_idempotency_key_key" ON "plugin_pos_returns"("organization_id", "idempotency_key");
