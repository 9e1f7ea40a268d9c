-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "address" TEXT,
ADD COLUMN     "addressPrivate" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "area" TEXT,
ADD COLUMN     "calendarSequence" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "endsAt" TIMESTAMPTZ(3),
ADD COLUMN     "onlineUrl" TEXT,
ADD COLUMN     "startsAt" TIMESTAMPTZ(3),
ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'UTC',
ADD COLUMN     "venue" TEXT;

-- AlterTable
ALTER TABLE "CampaignDraft" ADD COLUMN     "address" TEXT,
ADD COLUMN     "addressPrivate" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "area" TEXT,
ADD COLUMN     "endsAt" TIMESTAMPTZ(3),
ADD COLUMN     "onlineUrl" TEXT,
ADD COLUMN     "startsAt" TIMESTAMPTZ(3),
ADD COLUMN     "timeZone" TEXT,
ADD COLUMN     "venue" TEXT;

-- Hand-written: the same limits as lib/campaigns/limits.ts and the schema's time rules.
ALTER TABLE "Campaign"
  ADD CONSTRAINT "Campaign_time_order" CHECK (
    ("endsAt" IS NULL OR ("startsAt" IS NOT NULL AND "endsAt" > "startsAt"))
    AND ("startsAt" IS NULL OR deadline <= "startsAt")),
  ADD CONSTRAINT "Campaign_place_lengths" CHECK (
    char_length("timeZone") BETWEEN 1 AND 64
    AND ("venue" IS NULL OR char_length("venue") <= 120)
    AND ("address" IS NULL OR char_length("address") <= 300)
    AND ("area" IS NULL OR char_length("area") <= 80)
    AND ("onlineUrl" IS NULL OR char_length("onlineUrl") <= 500)),
  ADD CONSTRAINT "Campaign_calendarSequence_nonnegative" CHECK ("calendarSequence" >= 0);

ALTER TABLE "CampaignDraft"
  ADD CONSTRAINT "CampaignDraft_place_lengths" CHECK (
    ("timeZone" IS NULL OR char_length("timeZone") BETWEEN 1 AND 64)
    AND ("venue" IS NULL OR char_length("venue") <= 120)
    AND ("address" IS NULL OR char_length("address") <= 300)
    AND ("area" IS NULL OR char_length("area") <= 80)
    AND ("onlineUrl" IS NULL OR char_length("onlineUrl") <= 500));
