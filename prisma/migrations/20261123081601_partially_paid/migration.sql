-- AlterEnum
ALTER TYPE "payment_status" ADD VALUE 'partially_paid';
