-- Hand-written (issue 13 item 3, DESIGN §1 "public names", "withdrawing"): anonymous and public
-- numbers are STORED, never renumbered. "Attendee #n" is the pledge's number in its campaign,
-- "Commenter #n" the author's number among the campaign's commenters (the organizer takes none).
-- Existing rows keep the numbers the pages showed (first time, then id for pledges and author id
-- for commenters). Triggers number every new row, whoever writes it: pledges under the campaign
-- row lock every commit takes, first comments under a per-campaign advisory lock.
-- Function bodies write their semicolons as \073 inside E'' strings (see anonymity_immutable).

ALTER TABLE "Pledge" ADD COLUMN "attendeeNumber" INTEGER;
ALTER TABLE "Comment" ADD COLUMN "commenterNumber" INTEGER;

UPDATE "Pledge" p SET "attendeeNumber" = r.n
FROM (SELECT id, row_number() OVER (PARTITION BY "campaignId" ORDER BY "createdAt", id COLLATE "C") AS n FROM "Pledge") r
WHERE p.id = r.id;

UPDATE "Comment" c SET "commenterNumber" = r.n
FROM (
  SELECT f."campaignId", f."authorId", row_number() OVER (PARTITION BY f."campaignId" ORDER BY f.first, f."authorId" COLLATE "C") AS n
  FROM (
    SELECT cm."campaignId", cm."authorId", min(cm."createdAt") AS first
    FROM "Comment" cm JOIN "Campaign" ca ON ca.id = cm."campaignId"
    WHERE cm."authorId" <> ca."creatorId"
    GROUP BY cm."campaignId", cm."authorId"
  ) f
) r
WHERE c."campaignId" = r."campaignId" AND c."authorId" = r."authorId";

CREATE UNIQUE INDEX "Pledge_campaignId_attendeeNumber_key" ON "Pledge"("campaignId", "attendeeNumber");
CREATE INDEX "Comment_campaignId_authorId_idx" ON "Comment"("campaignId", "authorId");

CREATE OR REPLACE FUNCTION pn_number_pledge() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW."attendeeNumber" IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext(''attendee-number:'' || NEW."campaignId"))\073
    SELECT COALESCE(max("attendeeNumber"), 0) + 1 INTO NEW."attendeeNumber" FROM "Pledge" WHERE "campaignId" = NEW."campaignId"\073
  END IF\073
  RETURN NEW\073
END
';

CREATE TRIGGER "Pledge_number" BEFORE INSERT ON "Pledge" FOR EACH ROW EXECUTE FUNCTION pn_number_pledge();

CREATE OR REPLACE FUNCTION pn_number_commenter() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW."commenterNumber" IS NULL AND NOT EXISTS (SELECT 1 FROM "Campaign" WHERE id = NEW."campaignId" AND "creatorId" = NEW."authorId") THEN
    PERFORM pg_advisory_xact_lock(hashtext(''commenter-number:'' || NEW."campaignId"))\073
    SELECT "commenterNumber" INTO NEW."commenterNumber" FROM "Comment"
      WHERE "campaignId" = NEW."campaignId" AND "authorId" = NEW."authorId" AND "commenterNumber" IS NOT NULL LIMIT 1\073
    IF NEW."commenterNumber" IS NULL THEN
      SELECT COALESCE(max("commenterNumber"), 0) + 1 INTO NEW."commenterNumber" FROM "Comment" WHERE "campaignId" = NEW."campaignId"\073
    END IF\073
  END IF\073
  RETURN NEW\073
END
';

CREATE TRIGGER "Comment_number" BEFORE INSERT ON "Comment" FOR EACH ROW EXECUTE FUNCTION pn_number_commenter();
