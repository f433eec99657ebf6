-- CreateEnum
CREATE TYPE "media_origin" AS ENUM ('merchant', 'generated', 'imported');

-- CreateTable
CREATE TABLE "media_assets" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "origin" "media_origin" NOT NULL DEFAULT 'merchant',
    "confidence" DOUBLE PRECISION,
    "derived_from_asset_id" UUID,
    "alt" TEXT,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "checksum" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "media_assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "media_attachments" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "variant_key" TEXT NOT NULL DEFAULT '',
    "media_asset_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_attachments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "media_assets_derived_from_asset_id_idx" ON "media_assets"("derived_from_asset_id");

-- CreateIndex
CREATE UNIQUE INDEX "media_assets_organization_id_checksum_origin_key" ON "media_assets"("organization_id", "checksum", "origin");

-- CreateIndex
CREATE INDEX "media_attachments_organization_id_entity_id_sort_order_idx" ON "media_attachments"("organization_id", "entity_id", "sort_order");

-- CreateIndex
CREATE INDEX "media_attachments_media_asset_id_idx" ON "media_attachments"("media_asset_id");

-- CreateIndex
CREATE UNIQUE INDEX "media_attachments_entity_id_variant_key_media_asset_id_key" ON "media_attachments"("entity_id", "variant_key", "media_asset_id");

-- AddForeignKey
ALTER TABLE "media_assets" ADD CONSTRAINT "media_assets_derived_from_asset_id_fkey" FOREIGN KEY ("derived_from_asset_id") REFERENCES "media_assets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "media_attachments" ADD CONSTRAINT "media_attachments_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "media_attachments" ADD CONSTRAINT "media_attachments_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "catalog_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "media_attachments" ADD CONSTRAINT "media_attachments_media_asset_id_fkey" FOREIGN KEY ("media_asset_id") REFERENCES "media_assets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
