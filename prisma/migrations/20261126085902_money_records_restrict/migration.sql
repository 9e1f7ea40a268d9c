-- Issue 31 item 2: no money record is ever deleted with its event. A pledge (its charge, refund or saved card)
-- and a payout movement now keep their event: deleting an event that has them is refused by the database, and the
-- admin delete of test events removes money-free pledges itself first (lib/campaigns/service.ts). A reversal keeps
-- the transfer it takes money back from.

-- DropForeignKey
ALTER TABLE "Payout" DROP CONSTRAINT "Payout_campaignId_fkey";

-- DropForeignKey
ALTER TABLE "Pledge" DROP CONSTRAINT "Pledge_campaignId_fkey";

-- AddForeignKey
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_reversedPayoutId_fkey" FOREIGN KEY ("reversedPayoutId") REFERENCES "Payout"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
