-- AlterTable
ALTER TABLE "EmailOutbox" ADD COLUMN     "headers" JSONB;
