-- AlterTable
ALTER TABLE "plugin_pos_overrides" ADD COLUMN     "approval" JSONB;
