-- Hand-written: covers stored before Campaign.coverId existed get their id there too (lists read the column).
UPDATE "Campaign" c SET "coverId" = ci.id FROM "CoverImage" ci WHERE ci."campaignId" = c.id AND c."coverId" IS NULL;
