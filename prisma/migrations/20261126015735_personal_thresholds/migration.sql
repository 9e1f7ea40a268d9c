-- Issue 21 (DESIGN §1 "personal thresholds", "early go-ahead"): a commitment may say "only count me if
-- at least N people are in". The members are the largest set whose conditions all hold, and only members
-- count toward the goal and are charged. Every commitment that holds a place today is a member.

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "earlyGoAhead" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "goAheadAt" TIMESTAMPTZ(3),
ADD COLUMN     "goAheadCount" INTEGER,
ADD COLUMN     "hasConditions" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "CampaignDraft" ADD COLUMN     "earlyGoAhead" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN     "conditionReleasedAt" TIMESTAMPTZ(3),
ADD COLUMN     "memberSince" TIMESTAMPTZ(3),
ADD COLUMN     "minPeople" INTEGER;

UPDATE "Pledge" SET "memberSince" = "createdAt" WHERE "waitlistedAt" IS NULL;

ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_minPeople_check" CHECK ("minPeople" IS NULL OR ("minPeople" >= 1 AND "minPeople" <= 10000));
-- a commitment without a condition counts from the moment it holds a place
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_firm_member_check"
  CHECK ("minPeople" IS NOT NULL OR "memberSince" IS NOT NULL OR "waitlistedAt" IS NOT NULL);
-- only a member is ever charged
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_charged_member_check" CHECK ("charged" = false OR "memberSince" IS NOT NULL);
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_places_held_check" CHECK ("capacity" IS NULL OR "pledgeCount" <= "capacity");
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_goAhead_check"
  CHECK ("goAheadAt" IS NULL OR ("earlyGoAhead" AND "goAheadCount" IS NOT NULL AND "pactType" IS DISTINCT FROM 'crowdfund'));

-- A commitment without a condition is a member from the moment it holds a place, whoever writes it
-- (a commit, a promotion from the waitlist, a fixture), and one waiting is nobody's member.
CREATE OR REPLACE FUNCTION pn_firm_member() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW."waitlistedAt" IS NOT NULL THEN
    NEW."memberSince" := NULL\073
  ELSIF NEW."minPeople" IS NULL AND NEW."memberSince" IS NULL THEN
    NEW."memberSince" := COALESCE(NEW."createdAt", now())\073
  END IF\073
  RETURN NEW\073
END
';

CREATE TRIGGER pn_firm_member BEFORE INSERT OR UPDATE OF "waitlistedAt", "minPeople", "memberSince" ON "Pledge"
FOR EACH ROW EXECUTE FUNCTION pn_firm_member();
