-- CreateTable
CREATE TABLE "plugin_channel_stores" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'commerce-service',
    "base_url" TEXT NOT NULL,
    "api_key_ciphertext" TEXT NOT NULL,
    "api_key_hint" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "warehouse_id" UUID NOT NULL,
    "page_size" INTEGER NOT NULL DEFAULT 100,
    "order_payment_method" TEXT NOT NULL DEFAULT 'pm_card_visa',
    "backfill_run_id" UUID,
    "backfill_status" TEXT NOT NULL DEFAULT 'idle',
    "backfill_pages" INTEGER NOT NULL DEFAULT 0,
    "backfill_imported" INTEGER NOT NULL DEFAULT 0,
    "backfill_total" INTEGER,
    "backfill_started_at" TIMESTAMPTZ(3),
    "backfill_finished_at" TIMESTAMPTZ(3),
    "last_inventory_sync_at" TIMESTAMPTZ(3),
    "last_reconcile_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_channel_stores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_channel_links" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "remote_id" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "remote_values" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'active',
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_channel_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plugin_channel_order_exports" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "push_state" JSONB,
    "remote_order_id" TEXT,
    "remote_number" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "started_at" TIMESTAMPTZ(3),
    "exported_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "plugin_channel_order_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "plugin_channel_stores_organization_id_name_key" ON "plugin_channel_stores"("organization_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_channel_links_entity_id_key" ON "plugin_channel_links"("entity_id");

-- CreateIndex
CREATE INDEX "plugin_channel_links_organization_id_store_id_idx" ON "plugin_channel_links"("organization_id", "store_id");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_channel_links_store_id_remote_id_key" ON "plugin_channel_links"("store_id", "remote_id");

-- CreateIndex
CREATE INDEX "plugin_channel_order_exports_organization_id_status_updated_idx" ON "plugin_channel_order_exports"("organization_id", "status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_channel_order_exports_store_id_order_id_key" ON "plugin_channel_order_exports"("store_id", "order_id");

-- AddForeignKey
ALTER TABLE "plugin_channel_links" ADD CONSTRAINT "plugin_channel_links_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "plugin_channel_stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "plugin_channel_order_exports" ADD CONSTRAINT "plugin_channel_order_exports_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "plugin_channel_stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
