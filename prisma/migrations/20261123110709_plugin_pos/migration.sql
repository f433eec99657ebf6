-- CreateTable
CREATE TABLE "plugin_pos_operator_pins" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "pin_hash" TEXT NOT NULL,
    "pin_version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_pos_operator_pins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_pos_pin_attempts" (
    "organization_id" UUID NOT NULL,
    "operator_id" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "last_failure_at" TIMESTAMPTZ(3),
    "locked_at" TIMESTAMPTZ(3),

    CONSTRAINT "plugin_pos_pin_attempts_pkey" PRIMARY KEY ("organization_id","operator_id")
);

-- CreateTable
CREATE TABLE "plugin_pos_shifts" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "operator_id" TEXT NOT NULL,
    "register_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "pin_version" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_pos_shifts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_pos_overrides" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "manager_id" TEXT NOT NULL,
    "requested_by" TEXT NOT NULL,
    "requested_key_id" TEXT,
    "register_id" TEXT,
    "reason" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "consumed_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_pos_overrides_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_pos_exchanges" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "original_order_id" UUID NOT NULL,
    "replacement_order_id" UUID NOT NULL,
    "refund_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "credit" BIGINT NOT NULL,
    "replacement_total" BIGINT NOT NULL,
    "difference" BIGINT NOT NULL,
    "settlement" TEXT NOT NULL,
    "provider_reference" TEXT,
    "idempotency_key" TEXT NOT NULL,
    "register_id" TEXT,
    "override_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_pos_exchanges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "plugin_pos_operator_pins_organization_id_user_id_key" ON "plugin_pos_operator_pins"("organization_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_pos_shifts_api_key_id_key" ON "plugin_pos_shifts"("api_key_id");

-- CreateIndex
CREATE INDEX "plugin_pos_shifts_organization_id_operator_id_revoked_at_idx" ON "plugin_pos_shifts"("organization_id", "operator_id", "revoked_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_pos_overrides_token_hash_key" ON "plugin_pos_overrides"("token_hash");

-- CreateIndex
CREATE INDEX "plugin_pos_overrides_organization_id_created_at_idx" ON "plugin_pos_overrides"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_pos_exchanges_replacement_order_id_key" ON "plugin_pos_exchanges"("replacement_order_id");

-- CreateIndex
CREATE INDEX "plugin_pos_exchanges_organization_id_original_order_id_idx" ON "plugin_pos_exchanges"("organization_id", "original_order_id");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_pos_exchanges_organization_id_idempotency_key_key" ON "plugin_pos_exchanges"("organization_id", "idempotency_key");
