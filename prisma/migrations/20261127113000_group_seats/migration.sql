-- Issue 37 item 1: group commitments. A commitment may hold 1 to M seats (Campaign.maxSeats, 1: off);
-- each seat is its own pledge (docs/decisions/group-commitments.md) sharing the holder's group id
-- (the holder's own seat's id). The holder's extra seats are pledges of the holder with guestSlot
-- 1..M-1, so "one live commitment per person and event" becomes one live (campaign, person, slot).

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN "maxSeats" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_maxSeats_check" CHECK ("maxSeats" BETWEEN 1 AND 10);
ALTER TABLE "CampaignDraft" ADD COLUMN "maxSeats" INTEGER NOT NULL DEFAULT 4;

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN "groupId" TEXT,
ADD COLUMN "guestSlot" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "partialOk" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_guestSlot_check" CHECK ("guestSlot" BETWEEN 0 AND 9);

-- one live commitment per person, event and seat slot (slot 0: the person's own)
DROP INDEX "Pledge_campaignId_userId_key";
CREATE UNIQUE INDEX "Pledge_campaignId_userId_guestSlot_key" ON "Pledge"("campaignId", "userId", "guestSlot") WHERE ("withdrawnAt" IS NULL);

-- a group's seats
CREATE INDEX "Pledge_groupId_idx" ON "Pledge"("groupId") WHERE ("groupId" IS NOT NULL);
