-- CreateEnum
CREATE TYPE "catalog_entity_status" AS ENUM ('draft', 'active', 'archived', 'discontinued');

-- CreateEnum
CREATE TYPE "catalog_field_type" AS ENUM ('string', 'number', 'boolean', 'date', 'enum', 'json');

-- CreateEnum
CREATE TYPE "catalog_custom_field_status" AS ENUM ('proposed', 'approved', 'rejected', 'superseded');

-- CreateEnum
CREATE TYPE "catalog_field_owner" AS ENUM ('platform', 'store', 'shared');

-- CreateTable
CREATE TABLE "catalog_entities" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "status" "catalog_entity_status" NOT NULL DEFAULT 'draft',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "tax_class_id" UUID,
    "source_store_id" TEXT,
    "published_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_entities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_attributes" (
    "entity_id" UUID NOT NULL,
    "locale" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "seo_title" TEXT,
    "seo_description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_attributes_pkey" PRIMARY KEY ("entity_id","locale")
);

-- CreateTable
CREATE TABLE "catalog_categories" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT,
    "parent_id" UUID,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_brands" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT,
    "logo_url" TEXT,
    "website_url" TEXT,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_brands_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_entity_categories" (
    "entity_id" UUID NOT NULL,
    "category_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_entity_categories_pkey" PRIMARY KEY ("entity_id","category_id")
);

-- CreateTable
CREATE TABLE "catalog_entity_brands" (
    "entity_id" UUID NOT NULL,
    "brand_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_entity_brands_pkey" PRIMARY KEY ("entity_id","brand_id")
);

-- CreateTable
CREATE TABLE "catalog_option_types" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "label" TEXT,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_option_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_option_values" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "option_type_id" UUID NOT NULL,
    "value" TEXT NOT NULL,
    "label" TEXT,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_option_values_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_variants" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "sku" TEXT NOT NULL,
    "title" TEXT,
    "option_key" TEXT NOT NULL,
    "tax_class_id" UUID,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_variants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_variant_options" (
    "variant_id" UUID NOT NULL,
    "option_type_id" UUID NOT NULL,
    "option_value_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,

    CONSTRAINT "catalog_variant_options_pkey" PRIMARY KEY ("variant_id","option_type_id")
);

-- CreateTable
CREATE TABLE "catalog_field_definitions" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "entity_type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "label" TEXT,
    "description" TEXT,
    "type" "catalog_field_type" NOT NULL,
    "enum_values" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "required" BOOLEAN NOT NULL DEFAULT false,
    "filterable" BOOLEAN NOT NULL DEFAULT false,
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_field_definitions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_custom_fields" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "field_name" TEXT NOT NULL,
    "locale" TEXT NOT NULL DEFAULT 'en',
    "value" JSONB NOT NULL,
    "status" "catalog_custom_field_status" NOT NULL,
    "source" TEXT NOT NULL,
    "source_store_id" TEXT,
    "note" TEXT,
    "proposed_by" TEXT,
    "reviewed_by" TEXT,
    "reviewed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_custom_fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_field_ownership" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "field_path" TEXT NOT NULL,
    "owner" "catalog_field_owner" NOT NULL,
    "store_id" TEXT,
    "variant_id" UUID,
    "scope_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_field_ownership_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "catalog_entities_organization_id_status_created_at_idx" ON "catalog_entities"("organization_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "catalog_entities_organization_id_type_status_idx" ON "catalog_entities"("organization_id", "type", "status");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_entities_organization_id_slug_key" ON "catalog_entities"("organization_id", "slug");

-- CreateIndex
CREATE INDEX "catalog_categories_organization_id_parent_id_sort_order_idx" ON "catalog_categories"("organization_id", "parent_id", "sort_order");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_categories_organization_id_slug_key" ON "catalog_categories"("organization_id", "slug");

-- CreateIndex
CREATE INDEX "catalog_brands_organization_id_sort_order_idx" ON "catalog_brands"("organization_id", "sort_order");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_brands_organization_id_slug_key" ON "catalog_brands"("organization_id", "slug");

-- CreateIndex
CREATE INDEX "catalog_entity_categories_category_id_idx" ON "catalog_entity_categories"("category_id");

-- CreateIndex
CREATE INDEX "catalog_entity_brands_brand_id_idx" ON "catalog_entity_brands"("brand_id");

-- CreateIndex
CREATE INDEX "catalog_option_types_organization_id_idx" ON "catalog_option_types"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_option_types_entity_id_name_key" ON "catalog_option_types"("entity_id", "name");

-- CreateIndex
CREATE INDEX "catalog_option_values_organization_id_idx" ON "catalog_option_values"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_option_values_option_type_id_value_key" ON "catalog_option_values"("option_type_id", "value");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_variants_organization_id_sku_key" ON "catalog_variants"("organization_id", "sku");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_variants_entity_id_option_key_key" ON "catalog_variants"("entity_id", "option_key");

-- CreateIndex
CREATE INDEX "catalog_variant_options_option_value_id_idx" ON "catalog_variant_options"("option_value_id");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_field_definitions_organization_id_entity_type_name_key" ON "catalog_field_definitions"("organization_id", "entity_type", "name");

-- CreateIndex
CREATE INDEX "catalog_custom_fields_entity_id_field_name_locale_status_idx" ON "catalog_custom_fields"("entity_id", "field_name", "locale", "status");

-- CreateIndex
CREATE INDEX "catalog_custom_fields_organization_id_status_created_at_idx" ON "catalog_custom_fields"("organization_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "catalog_field_ownership_entity_id_store_id_idx" ON "catalog_field_ownership"("entity_id", "store_id");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_field_ownership_entity_id_field_path_scope_key_key" ON "catalog_field_ownership"("entity_id", "field_path", "scope_key");

-- AddForeignKey
ALTER TABLE "catalog_attributes" ADD CONSTRAINT "catalog_attributes_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_categories" ADD CONSTRAINT "catalog_categories_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "catalog_categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_entity_categories" ADD CONSTRAINT "catalog_entity_categories_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_entity_categories" ADD CONSTRAINT "catalog_entity_categories_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "catalog_categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_entity_brands" ADD CONSTRAINT "catalog_entity_brands_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_entity_brands" ADD CONSTRAINT "catalog_entity_brands_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "catalog_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_option_types" ADD CONSTRAINT "catalog_option_types_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_option_values" ADD CONSTRAINT "catalog_option_values_option_type_id_fkey" FOREIGN KEY ("option_type_id") REFERENCES "catalog_option_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_variants" ADD CONSTRAINT "catalog_variants_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_variant_options" ADD CONSTRAINT "catalog_variant_options_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "catalog_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_variant_options" ADD CONSTRAINT "catalog_variant_options_option_value_id_fkey" FOREIGN KEY ("option_value_id") REFERENCES "catalog_option_values"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_custom_fields" ADD CONSTRAINT "catalog_custom_fields_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_field_ownership" ADD CONSTRAINT "catalog_field_ownership_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_field_ownership" ADD CONSTRAINT "catalog_field_ownership_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "catalog_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-added (Prisma cannot express partial indexes): at most one live (approved) value per
-- entity, field and locale, whatever the concurrency of approvals and direct writes.
CREATE UNIQUE INDEX "catalog_custom_fields_one_approved_key" ON "catalog_custom_fields"("entity_id", "field_name", "locale") WHERE "status" = 'approved';
