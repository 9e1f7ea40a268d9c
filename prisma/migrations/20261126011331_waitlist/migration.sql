-- Issue 20 (DESIGN §1 "capacity and waitlist"): an optional capacity at least the goal, and a
-- waitlist of commitments in commit order. A waiting commitment is not counted, not charged and not
-- listed until it is promoted. Capacity applies to pactions (a crowdfund counts dollars).

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "capacity" INTEGER,
ADD COLUMN     "waitlistCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "CampaignDraft" ADD COLUMN     "capacity" INTEGER;

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN     "gaveUpAt" TIMESTAMPTZ(3),
ADD COLUMN     "handedToId" TEXT,
ADD COLUMN     "promotedAt" TIMESTAMPTZ(3),
ADD COLUMN     "waitlistClosedAt" TIMESTAMPTZ(3),
ADD COLUMN     "waitlistedAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Campaign_waitlist_idx" ON "Campaign"("id") WHERE ("waitlistCount" > 0);

-- CreateIndex
CREATE INDEX "Pledge_waitlist_idx" ON "Pledge"("campaignId", "createdAt", "id") WHERE (("waitlistedAt" IS NOT NULL) AND ("withdrawnAt" IS NULL));

-- CreateIndex
CREATE INDEX "Pledge_handover_idx" ON "Pledge"("handedToId") WHERE ("handedToId" IS NOT NULL);

-- AddForeignKey
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_handedToId_fkey" FOREIGN KEY ("handedToId") REFERENCES "Pledge"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_capacity_check"
  CHECK ("capacity" IS NULL OR ("capacity" >= "goal" AND "capacity" <= 10000 AND "pactType" IS DISTINCT FROM 'crowdfund'));
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_waitlistCount_check" CHECK ("waitlistCount" >= 0);
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_capacity_held_check"
  CHECK ("capacity" IS NULL OR "committedCount" <= "capacity");
ALTER TABLE "CampaignDraft" ADD CONSTRAINT "CampaignDraft_capacity_check"
  CHECK ("capacity" IS NULL OR ("capacity" >= 1 AND "capacity" <= 10000));
-- a waiting commitment has nothing charged
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_waitlist_uncharged_check"
  CHECK ("waitlistedAt" IS NULL OR "charged" = false);
