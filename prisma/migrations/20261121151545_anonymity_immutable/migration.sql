-- Hand-written. SPEC §4: "Anonymity setting is permanent after creation". Attendees committed
-- under the announced anonymity, and a later switch would reveal them without their consent.
-- The trigger makes that hold for every writer (app code, scripts, manual SQL).
--
-- The function body writes its semicolons as \073 inside an E'' string: @prisma/adapter-pg's
-- executeScript splits a migration at every semicolon (dollar quotes included), so no literal
-- semicolon may appear inside a statement of this file, comments included.

CREATE OR REPLACE FUNCTION "campaign_anonymity_immutable"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW."attendeesAnonymous" IS DISTINCT FROM OLD."attendeesAnonymous"
     OR NEW."identityRevelationType" IS DISTINCT FROM OLD."identityRevelationType" THEN
    RAISE EXCEPTION ''The anonymity setting of an event cannot be changed after creation.''
      USING ERRCODE = ''check_violation'', CONSTRAINT = ''Campaign_anonymity_immutable''\073
  END IF\073
  RETURN NEW\073
END
';

CREATE TRIGGER "Campaign_anonymity_immutable"
  BEFORE UPDATE OF "attendeesAnonymous", "identityRevelationType" ON "Campaign"
  FOR EACH ROW EXECUTE FUNCTION "campaign_anonymity_immutable"();
