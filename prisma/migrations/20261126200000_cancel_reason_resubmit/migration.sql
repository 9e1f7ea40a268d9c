-- Issue 34 item 3: a cancelled event's optional reason (shown to backers, at most 500 characters) and
-- the number of times a rejected event was resubmitted for review (at most 3)

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "cancelReason" TEXT,
ADD COLUMN     "resubmitCount" INTEGER NOT NULL DEFAULT 0;

-- Prisma's differ ignores CHECK constraints: the limits are repeated here by hand.
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_cancelReason_length" CHECK ("cancelReason" IS NULL OR char_length("cancelReason") <= 500);
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_resubmitCount_range" CHECK ("resubmitCount" BETWEEN 0 AND 3);
