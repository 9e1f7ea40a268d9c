-- Hand-written (issue 35 item 3, commits/s). A pledge, comment or organiser update touches its
-- campaign's "updatedAt" (the version its cached pages are keyed by: lib/cache/visitor-version.ts)
-- once per statement. A commit already updates the campaign's counters in the same statement, so the
-- touch was a second UPDATE of the same row: a second row version, a second entry in every index of
-- "Campaign" (its search index computes to_tsvector again) and about 0.7 ms of database time per
-- commit. A row this transaction has already updated (its xmin is the transaction's own id) has
-- been stamped by pn_campaign_stamp past its last committed "updatedAt", and no other transaction
-- sees it before commit: the version moves without the second UPDATE. A row updated only in a
-- savepoint, or not at all, carries another xmin and is touched as before.
-- Function bodies write their semicolons as \073 (the migration runner splits at every semicolon).
CREATE OR REPLACE FUNCTION pn_touch_campaigns_new() RETURNS trigger AS E'
BEGIN
  UPDATE "Campaign" SET "updatedAt" = clock_timestamp()
  WHERE id IN (SELECT DISTINCT "campaignId" FROM pn_new_rows) AND xmin <> pg_current_xact_id()::xid\073
  RETURN NULL\073
END\073
' LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION pn_touch_campaigns_old() RETURNS trigger AS E'
BEGIN
  UPDATE "Campaign" SET "updatedAt" = clock_timestamp()
  WHERE id IN (SELECT DISTINCT "campaignId" FROM pn_old_rows) AND xmin <> pg_current_xact_id()::xid\073
  RETURN NULL\073
END\073
' LANGUAGE plpgsql;
