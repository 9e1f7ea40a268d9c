-- DESIGN §1 "public names" (issue 13): display names are public, so none may carry an email address
-- or pose as a label the app gives others ("Event organizer", "Anonymous …", "Attendee #n",
-- "Commenter #n"): such names are cleared (the same rule as lib/auth/schema.ts). Pledge.contributor
-- no longer stores emails: the display name, else "Anonymous Backer".
UPDATE "User" SET "name" = NULL
WHERE "name" ~ '\S@\S' OR btrim("name") ~ '^@|@$'
   OR "name" ~* '^\s*(event\s+organi[sz]er\M|anonymous\M|(attendee|commenter)\s*#?\s*[0-9]+\s*$)';

UPDATE "Pledge" p SET "contributor" = COALESCE(NULLIF(btrim(u."name"), ''), 'Anonymous Backer')
FROM "User" u
WHERE u."id" = p."userId" AND p."contributor" IS DISTINCT FROM COALESCE(NULLIF(btrim(u."name"), ''), 'Anonymous Backer');
