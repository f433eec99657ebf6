-- Variants get their own lifecycle (issue 28). Existing variants stay sellable: the default is active.
CREATE TYPE "catalog_variant_status" AS ENUM ('active', 'draft', 'archived');

ALTER TABLE "catalog_variants" ADD COLUMN "status" "catalog_variant_status" NOT NULL DEFAULT 'active';
