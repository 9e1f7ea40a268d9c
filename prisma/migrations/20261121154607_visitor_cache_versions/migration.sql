-- Hand-written. Visitors' pages are served from a cache keyed by the campaign's "updatedAt"
-- (lib/cache/visitor-version.ts). These triggers make "updatedAt" move whenever anything shown on
-- the event page or home changes, whatever code writes it (Prisma, raw SQL, a background job).
-- Function bodies write their semicolons as \073 inside E'' strings: @prisma/adapter-pg's
-- executeScript splits a migration at every semicolon (see the anonymity_immutable migration).

-- Any update of a campaign row stamps it, also raw-SQL updates that do not set the column.
CREATE OR REPLACE FUNCTION pn_campaign_stamp() RETURNS trigger AS E'
BEGIN
  NEW."updatedAt" := clock_timestamp()\073
  RETURN NEW\073
END\073
' LANGUAGE plpgsql;

CREATE TRIGGER "Campaign_stamp_updatedAt"
  BEFORE UPDATE ON "Campaign"
  FOR EACH ROW EXECUTE FUNCTION pn_campaign_stamp();

-- Pledges, comments and organiser updates touch their campaign, once per statement (bulk-safe).
CREATE OR REPLACE FUNCTION pn_touch_campaigns_new() RETURNS trigger AS E'
BEGIN
  UPDATE "Campaign" SET "updatedAt" = clock_timestamp()
  WHERE id IN (SELECT DISTINCT "campaignId" FROM pn_new_rows)\073
  RETURN NULL\073
END\073
' LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION pn_touch_campaigns_old() RETURNS trigger AS E'
BEGIN
  UPDATE "Campaign" SET "updatedAt" = clock_timestamp()
  WHERE id IN (SELECT DISTINCT "campaignId" FROM pn_old_rows)\073
  RETURN NULL\073
END\073
' LANGUAGE plpgsql;

CREATE TRIGGER "Pledge_touch_campaign_ins" AFTER INSERT ON "Pledge"
  REFERENCING NEW TABLE AS pn_new_rows FOR EACH STATEMENT EXECUTE FUNCTION pn_touch_campaigns_new();
CREATE TRIGGER "Pledge_touch_campaign_upd" AFTER UPDATE ON "Pledge"
  REFERENCING NEW TABLE AS pn_new_rows FOR EACH STATEMENT EXECUTE FUNCTION pn_touch_campaigns_new();
CREATE TRIGGER "Pledge_touch_campaign_del" AFTER DELETE ON "Pledge"
  REFERENCING OLD TABLE AS pn_old_rows FOR EACH STATEMENT EXECUTE FUNCTION pn_touch_campaigns_old();

CREATE TRIGGER "Comment_touch_campaign_ins" AFTER INSERT ON "Comment"
  REFERENCING NEW TABLE AS pn_new_rows FOR EACH STATEMENT EXECUTE FUNCTION pn_touch_campaigns_new();
CREATE TRIGGER "Comment_touch_campaign_del" AFTER DELETE ON "Comment"
  REFERENCING OLD TABLE AS pn_old_rows FOR EACH STATEMENT EXECUTE FUNCTION pn_touch_campaigns_old();

CREATE TRIGGER "CampaignUpdate_touch_campaign_ins" AFTER INSERT ON "CampaignUpdate"
  REFERENCING NEW TABLE AS pn_new_rows FOR EACH STATEMENT EXECUTE FUNCTION pn_touch_campaigns_new();
CREATE TRIGGER "CampaignUpdate_touch_campaign_del" AFTER DELETE ON "CampaignUpdate"
  REFERENCING OLD TABLE AS pn_old_rows FOR EACH STATEMENT EXECUTE FUNCTION pn_touch_campaigns_old();
