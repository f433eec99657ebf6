-- Shipping zones and methods (issue 25), the cart's chosen method and address, the order's
-- shipping lines, and variant weight and dimensions for weight-based calculators.

-- CreateTable
CREATE TABLE "shipping_zones" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "countries" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "regions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "postal_codes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "shipping_zones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shipping_methods" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "zone_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'delivery',
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "tax_class_id" UUID,
    "warehouse_id" UUID,
    "min_days" INTEGER,
    "max_days" INTEGER,
    "calculator" JSONB NOT NULL,
    "min_subtotal" BIGINT,
    "max_subtotal" BIGINT,
    "max_weight_grams" INTEGER,
    "customer_group_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "shipping_methods_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_shipping_lines" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "method_id" UUID,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "tax_rate_bps" INTEGER NOT NULL DEFAULT 0,
    "tax_total" BIGINT NOT NULL DEFAULT 0,
    "min_days" INTEGER,
    "max_days" INTEGER,
    "warehouse_id" UUID,
    "pickup_location" JSONB,
    "refunded_amount" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_shipping_lines_pkey" PRIMARY KEY ("id")
);

-- AlterTable
ALTER TABLE "order_refunds" ADD COLUMN     "shipping_amount" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "carts" ADD COLUMN     "shipping_method_id" UUID,
ADD COLUMN     "shipping_address" JSONB;

-- AlterTable
ALTER TABLE "catalog_variants" ADD COLUMN     "weight_grams" INTEGER,
ADD COLUMN     "length_mm" INTEGER,
ADD COLUMN     "width_mm" INTEGER,
ADD COLUMN     "height_mm" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "shipping_zones_organization_id_name_key" ON "shipping_zones"("organization_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "shipping_methods_organization_id_code_key" ON "shipping_methods"("organization_id", "code");

-- CreateIndex
CREATE INDEX "shipping_methods_zone_id_idx" ON "shipping_methods"("zone_id");

-- CreateIndex
CREATE INDEX "order_shipping_lines_order_id_idx" ON "order_shipping_lines"("order_id");

-- AddForeignKey
ALTER TABLE "shipping_methods" ADD CONSTRAINT "shipping_methods_zone_id_fkey" FOREIGN KEY ("zone_id") REFERENCES "shipping_zones"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_shipping_lines" ADD CONSTRAINT "order_shipping_lines_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
