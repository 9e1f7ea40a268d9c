-- CreateEnum
CREATE TYPE "PledgeStanding" AS ENUM ('in', 'conditional', 'waiting', 'withdrawn', 'gave_up', 'dropped', 'released', 'waitlist_closed');

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN     "standing" "PledgeStanding" NOT NULL DEFAULT 'in';

-- Issue 32: the place of a commitment is one column. The nine markers of today stay as its history: this one
-- function decodes them (the order is the one My commitments used), the trigger below writes the column
-- from them on every insert and every change of a marker (or of the column itself, so nothing can set
-- it apart from its markers), and the backfill below runs the same function over the rows there are.
CREATE OR REPLACE FUNCTION pn_pledge_standing(
  "withdrawnAt" timestamptz, "waitlistedAt" timestamptz, "memberSince" timestamptz, "minPeople" integer,
  "conditionReleasedAt" timestamptz, "waitlistClosedAt" timestamptz, "gaveUpAt" timestamptz, "droppedAt" timestamptz
) RETURNS "PledgeStanding" LANGUAGE sql IMMUTABLE AS E'
  SELECT (CASE
    WHEN "withdrawnAt" IS NULL AND "waitlistedAt" IS NOT NULL THEN \'waiting\'
    WHEN "withdrawnAt" IS NULL AND "memberSince" IS NULL AND "minPeople" IS NOT NULL THEN \'conditional\'
    WHEN "withdrawnAt" IS NULL THEN \'in\'
    WHEN "conditionReleasedAt" IS NOT NULL THEN \'released\'
    WHEN "waitlistClosedAt" IS NOT NULL THEN \'waitlist_closed\'
    WHEN "gaveUpAt" IS NOT NULL THEN \'gave_up\'
    WHEN "droppedAt" IS NOT NULL THEN \'dropped\'
    ELSE \'withdrawn\'
  END)::"PledgeStanding"
';

CREATE OR REPLACE FUNCTION pn_standing() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  NEW."standing" := pn_pledge_standing(NEW."withdrawnAt", NEW."waitlistedAt", NEW."memberSince", NEW."minPeople",
    NEW."conditionReleasedAt", NEW."waitlistClosedAt", NEW."gaveUpAt", NEW."droppedAt")\073
  RETURN NEW\073
END
';

-- after pn_firm_member (triggers of one event fire in name order), which may set "memberSince"
CREATE TRIGGER pn_standing BEFORE INSERT OR UPDATE OF "standing", "withdrawnAt", "waitlistedAt", "memberSince",
  "minPeople", "conditionReleasedAt", "waitlistClosedAt", "gaveUpAt", "droppedAt" ON "Pledge"
FOR EACH ROW EXECUTE FUNCTION pn_standing();

UPDATE "Pledge" SET "standing" = pn_pledge_standing("withdrawnAt", "waitlistedAt", "memberSince", "minPeople",
  "conditionReleasedAt", "waitlistClosedAt", "gaveUpAt", "droppedAt");

-- Standing and charge state pair up: money is only ever taken on a counted place (it may be withdrawn,
-- given up or dropped afterwards, with its refund): a commitment never counted is never charged.
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_standing_charge_check" CHECK (
  ("chargeStatus" NOT IN ('processing', 'succeeded', 'refunded') AND "charged" = false)
  OR "standing" IN ('in', 'withdrawn', 'gave_up', 'dropped')
);
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_released_uncharged_check" CHECK (
  "standing" NOT IN ('released', 'conditional') OR "chargeStatus" IN ('none', 'failed', 'requires_action')
);
