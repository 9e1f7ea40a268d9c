-- Issue 33: an optional dress code on events and drafts (lib/campaigns/event-fields.ts), the demo of a
-- field added through the one definition. Up to 200 characters, as the form says.

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "dressCode" TEXT;

-- AlterTable
ALTER TABLE "CampaignDraft" ADD COLUMN     "dressCode" TEXT;

-- Prisma's differ ignores CHECK constraints: the limit is repeated here by hand.
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_dressCode_length" CHECK ("dressCode" IS NULL OR char_length("dressCode") <= 200);
ALTER TABLE "CampaignDraft" ADD CONSTRAINT "CampaignDraft_dressCode_length" CHECK ("dressCode" IS NULL OR char_length("dressCode") <= 200);
