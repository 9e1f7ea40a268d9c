-- Issue 36 item 3: a draft keeps the show-up deposit the create form asked for (the event's own
-- columns are in 20261127080000_show_up_deposit)

-- AlterTable
ALTER TABLE "CampaignDraft" ADD COLUMN "depositCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "depositGraceHours" INTEGER NOT NULL DEFAULT 24;
