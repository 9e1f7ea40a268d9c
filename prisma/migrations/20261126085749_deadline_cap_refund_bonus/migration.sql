-- Issue 31 item 4 (DESIGN §1 "deadline extension"): an extension stops 90 days after the deadline the
-- event was created with, however many extensions it takes. Existing events start from today's deadline.

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "originalDeadline" TIMESTAMPTZ(3);

UPDATE "Campaign" SET "originalDeadline" = "deadline" WHERE "originalDeadline" IS NULL;

-- Every writer (the create form, the seed, a fixture, raw SQL) gets the first deadline kept for it.
CREATE OR REPLACE FUNCTION pn_original_deadline() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW."originalDeadline" IS NULL THEN
    NEW."originalDeadline" := NEW."deadline"\073
  END IF\073
  RETURN NEW\073
END
';

CREATE TRIGGER pn_original_deadline BEFORE INSERT ON "Campaign"
FOR EACH ROW EXECUTE FUNCTION pn_original_deadline();

-- Prisma's differ ignores CHECK constraints: the column stays optional in the schema, never empty here.
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_originalDeadline_set" CHECK ("originalDeadline" IS NOT NULL);

-- Issue 31 item 6 (DESIGN §1 "refund bonus"): the bonus is the organizer's own promise, which
-- PactNexus neither holds nor pays. Paid events only (a crowdfund or a ticket price), 1 to 20 percent.
-- Existing values: above 20 becomes 20, a free event's bonus is removed.
UPDATE "Campaign" SET "refundBonusPercentage" = 20 WHERE "refundBonusPercentage" > 20;
UPDATE "Campaign" SET "refundBonusPercentage" = 0
  WHERE "refundBonusPercentage" <> 0 AND "pactType" IS DISTINCT FROM 'crowdfund' AND "ticketPriceCents" = 0;
UPDATE "CampaignDraft" SET "refundBonusPercentage" = 20 WHERE "refundBonusPercentage" > 20;
UPDATE "CampaignDraft" SET "refundBonusEnabled" = false, "refundBonusPercentage" = 0
  WHERE ("refundBonusEnabled" OR "refundBonusPercentage" <> 0)
    AND "pactType" IS DISTINCT FROM 'crowdfund' AND COALESCE("ticketPriceCents", 0) = 0;

ALTER TABLE "Campaign" DROP CONSTRAINT "Campaign_refundBonus_range";
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_refundBonus_range" CHECK ("refundBonusPercentage" BETWEEN 0 AND 20);
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_refundBonus_paid_only"
  CHECK ("refundBonusPercentage" = 0 OR "pactType" IS NOT DISTINCT FROM 'crowdfund' OR "ticketPriceCents" > 0);
ALTER TABLE "CampaignDraft" ADD CONSTRAINT "CampaignDraft_refundBonus_range" CHECK ("refundBonusPercentage" BETWEEN 0 AND 20);
ALTER TABLE "CampaignDraft" ADD CONSTRAINT "CampaignDraft_refundBonus_paid_only"
  CHECK ("refundBonusPercentage" = 0 OR "pactType" IS NOT DISTINCT FROM 'crowdfund' OR COALESCE("ticketPriceCents", 0) > 0);
