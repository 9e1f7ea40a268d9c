-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "coverId" TEXT;
