-- Issue 34: home search by PostgreSQL full-text search over title, description and the public place.
-- An expression index (no column: the schema and Prisma's differ stay as they are). The expression is
-- written once in lib/campaigns/search.ts (SEARCH_DOCUMENT) and repeated here word for word, so the
-- planner matches it. An attendee-only address is never indexed: only what a visitor may see
-- (lib/campaigns/place.ts placeFor) - the venue, the public area, and the address when it is public.
CREATE INDEX "Campaign_search_idx" ON "Campaign" USING GIN ((setweight(to_tsvector('english'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'B') || setweight(to_tsvector('english'::regconfig, coalesce("venue", '') || ' ' || coalesce("area", '') || ' ' || CASE WHEN "addressPrivate" THEN '' ELSE coalesce("address", '') END), 'C')));
