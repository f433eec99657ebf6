-- A point-of-sale exchange is made through a core return (issue 27): the row names it.
-- AlterTable
ALTER TABLE "plugin_pos_exchanges" ADD COLUMN "return_id" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "plugin_pos_exchanges_return_id_key" ON "plugin_pos_exchanges"("return_id");
