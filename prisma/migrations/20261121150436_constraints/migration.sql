-- Hand-written: invariants Prisma's schema language cannot express. Prisma's differ ignores
-- CHECK constraints, so `npm run db:new` neither drops nor repeats them.

ALTER TABLE "Campaign"
  ADD CONSTRAINT "Campaign_title_length" CHECK (char_length("title") BETWEEN 5 AND 100),
  ADD CONSTRAINT "Campaign_description_length" CHECK (char_length("description") BETWEEN 20 AND 1000),
  ADD CONSTRAINT "Campaign_logisticalDetails_length" CHECK ("logisticalDetails" IS NULL OR char_length("logisticalDetails") <= 2000),
  ADD CONSTRAINT "Campaign_goal_range" CHECK ("goal" BETWEEN 1 AND 10000),
  ADD CONSTRAINT "Campaign_ticketPrice_range" CHECK ("ticketPriceCents" BETWEEN 0 AND 1000000),
  ADD CONSTRAINT "Campaign_refundBonus_range" CHECK ("refundBonusPercentage" BETWEEN 0 AND 100),
  ADD CONSTRAINT "Campaign_counts_nonnegative" CHECK ("committedCount" >= 0 AND "pledgeCount" >= 0 AND "raisedCents" >= 0 AND "currentAmount" >= 0 AND "totalCharged" >= 0 AND "totalChargedCents" >= 0),
  ADD CONSTRAINT "Campaign_paymentMethod_length" CHECK ("paymentMethod" IS NULL OR char_length("paymentMethod") <= 100);

ALTER TABLE "Pledge"
  ADD CONSTRAINT "Pledge_amount_positive" CHECK ("amount" >= 1),
  ADD CONSTRAINT "Pledge_amountCents_range" CHECK ("amountCents" BETWEEN 0 AND 1000000000),
  ADD CONSTRAINT "Pledge_message_length" CHECK ("message" IS NULL OR char_length("message") <= 500),
  ADD CONSTRAINT "Pledge_charged_consistent" CHECK (NOT "charged" OR "chargedAt" IS NOT NULL);

ALTER TABLE "Comment"
  ADD CONSTRAINT "Comment_text_length" CHECK (char_length("text") BETWEEN 1 AND 500 AND "text" = btrim("text"));

ALTER TABLE "CampaignUpdate"
  ADD CONSTRAINT "CampaignUpdate_text_length" CHECK (char_length("text") BETWEEN 1 AND 2000);

ALTER TABLE "CampaignDraft"
  ADD CONSTRAINT "CampaignDraft_title_length" CHECK ("title" IS NULL OR char_length("title") <= 100),
  ADD CONSTRAINT "CampaignDraft_description_length" CHECK ("description" IS NULL OR char_length("description") <= 1000),
  ADD CONSTRAINT "CampaignDraft_logisticalDetails_length" CHECK ("logisticalDetails" IS NULL OR char_length("logisticalDetails") <= 2000),
  ADD CONSTRAINT "CampaignDraft_goal_range" CHECK ("goal" IS NULL OR "goal" BETWEEN 1 AND 10000),
  ADD CONSTRAINT "CampaignDraft_ticketPrice_range" CHECK ("ticketPriceCents" IS NULL OR "ticketPriceCents" BETWEEN 0 AND 1000000);

ALTER TABLE "User"
  ADD CONSTRAINT "User_email_normalized" CHECK ("email" = lower(btrim("email")) AND char_length("email") BETWEEN 3 AND 254),
  ADD CONSTRAINT "User_name_length" CHECK ("name" IS NULL OR char_length("name") <= 50);
