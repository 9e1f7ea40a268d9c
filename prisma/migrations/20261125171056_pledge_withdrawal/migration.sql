-- DropIndex
DROP INDEX "Pledge_campaignId_userId_key";

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "changeWithdrawUntil" TIMESTAMPTZ(3),
ADD COLUMN     "changedAfterTipAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN     "withdrawnAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "Pledge_campaignId_userId_key" ON "Pledge"("campaignId", "userId") WHERE ("withdrawnAt" IS NULL);
