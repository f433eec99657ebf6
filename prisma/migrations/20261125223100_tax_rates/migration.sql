-- CreateTable
CREATE TABLE "tax_rates" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "tax_class_id" UUID NOT NULL,
    "name" TEXT,
    "country_code" TEXT NOT NULL,
    "region" TEXT NOT NULL DEFAULT '',
    "postal_pattern" TEXT NOT NULL DEFAULT '',
    "rate_bps" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tax_rates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tax_rates_organization_id_country_code_idx" ON "tax_rates"("organization_id", "country_code");

-- CreateIndex
CREATE UNIQUE INDEX "tax_rates_organization_id_tax_class_id_country_code_region__key" ON "tax_rates"("organization_id", "tax_class_id", "country_code", "region", "postal_pattern");

-- AddForeignKey
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_tax_class_id_fkey" FOREIGN KEY ("tax_class_id") REFERENCES "tax_classes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
