-- Hand-written (issue 35 item 2). The campaign's "updatedAt" is the version its cached pages and its
-- memoised page reads are keyed by (lib/cache/visitor-version.ts, lib/campaigns/version-memo.ts), at
-- millisecond precision. Two changes within one millisecond could leave it unchanged, so a copy made
-- between them would be served as current: every stamp is now at least a millisecond past the last.
-- Function bodies write their semicolons as \073 (the migration runner splits at every semicolon).
CREATE OR REPLACE FUNCTION pn_campaign_stamp() RETURNS trigger AS E'
BEGIN
  NEW."updatedAt" := greatest(clock_timestamp(), OLD."updatedAt" + interval ''1 millisecond'')\073
  RETURN NEW\073
END\073
' LANGUAGE plpgsql;
