-- AlterTable
ALTER TABLE "CoverImage" ADD COLUMN     "storage" TEXT NOT NULL DEFAULT 'postgres',
ALTER COLUMN "small" DROP NOT NULL,
ALTER COLUMN "medium" DROP NOT NULL,
ALTER COLUMN "large" DROP NOT NULL;

-- Hand-written: a cover kept in PostgreSQL has its three widths, one in a bucket has none here.
ALTER TABLE "CoverImage" ADD CONSTRAINT "CoverImage_storage_bytes" CHECK (
  ("storage" = 'postgres' AND "small" IS NOT NULL AND "medium" IS NOT NULL AND "large" IS NOT NULL)
  OR ("storage" = 's3' AND "small" IS NULL AND "medium" IS NULL AND "large" IS NULL));
