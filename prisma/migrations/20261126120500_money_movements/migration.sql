-- Issue 32 item 2: money movements get their own table. Each movement at the payment provider is one row:
-- a charge or a refund of a pledge, a transfer to or a reversal from an organizer (those keep their Payout
-- row, which the movement links to). lib/ledger writes them in the statement or transaction that writes
-- the pledge's or payout's own columns: the idempotency key is the one sent to the provider.

-- CreateEnum
CREATE TYPE "MoneyKind" AS ENUM ('charge', 'refund', 'transfer', 'reversal');

-- CreateEnum
CREATE TYPE "MoneyPurpose" AS ENUM ('ticket', 'payout');

-- CreateEnum
CREATE TYPE "MoneyState" AS ENUM ('processing', 'requires_action', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "MoneyMovement" (
    "id" BIGSERIAL NOT NULL,
    "kind" "MoneyKind" NOT NULL,
    "purpose" "MoneyPurpose" NOT NULL,
    "state" "MoneyState" NOT NULL DEFAULT 'processing',
    "amountCents" BIGINT NOT NULL,
    "providerId" TEXT,
    "idempotencyKey" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "pledgeId" TEXT,
    "payoutId" TEXT,
    "sourceId" BIGINT,
    "failureCode" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MoneyMovement_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "MoneyMovement_providerId_key" ON "MoneyMovement"("providerId");

-- CreateIndex
CREATE UNIQUE INDEX "MoneyMovement_idempotencyKey_key" ON "MoneyMovement"("idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "MoneyMovement_payoutId_key" ON "MoneyMovement"("payoutId");

-- CreateIndex
CREATE INDEX "MoneyMovement_pledgeId_kind_idx" ON "MoneyMovement"("pledgeId", "kind");

-- CreateIndex
CREATE INDEX "MoneyMovement_campaignId_kind_idx" ON "MoneyMovement"("campaignId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "MoneyMovement_one_charge_key" ON "MoneyMovement"("pledgeId", "purpose") WHERE ((kind = 'charge'::"MoneyKind") AND (state = 'succeeded'::"MoneyState"));

-- AddForeignKey
ALTER TABLE "MoneyMovement" ADD CONSTRAINT "MoneyMovement_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MoneyMovement" ADD CONSTRAINT "MoneyMovement_pledgeId_fkey" FOREIGN KEY ("pledgeId") REFERENCES "Pledge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MoneyMovement" ADD CONSTRAINT "MoneyMovement_payoutId_fkey" FOREIGN KEY ("payoutId") REFERENCES "Payout"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MoneyMovement" ADD CONSTRAINT "MoneyMovement_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "MoneyMovement"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written: what Prisma cannot express. A movement moves money (never a negative amount: `kind` says which
-- way): charges and refunds name their pledge, transfers and reversals their Payout row and no pledge.
ALTER TABLE "MoneyMovement" ADD CONSTRAINT "MoneyMovement_amount_check" CHECK ("amountCents" >= 0);
ALTER TABLE "MoneyMovement" ADD CONSTRAINT "MoneyMovement_link_check" CHECK (
  CASE WHEN kind IN ('charge', 'refund') THEN "pledgeId" IS NOT NULL AND "payoutId" IS NULL AND purpose <> 'payout'
       ELSE "payoutId" IS NOT NULL AND "pledgeId" IS NULL AND purpose = 'payout' END);

-- Backfill 1/4: each pledge's last charge (a pledge kept only the payment of its last attempt: earlier failed
-- attempts left no id). The key is the one that attempt was sent under (lib/payments/types chargeIdempotencyKey).
-- A pledge claimed right now ('processing') is left to the run that holds it: its outcome is recorded with its row.
INSERT INTO "MoneyMovement" ("kind", "purpose", "state", "amountCents", "providerId", "idempotencyKey", "campaignId", "pledgeId", "failureCode", "createdAt", "updatedAt")
SELECT 'charge', 'ticket',
  (CASE WHEN p."chargeStatus" IN ('succeeded', 'refunded') THEN 'succeeded' ELSE p."chargeStatus"::text END)::"MoneyState",
  p."amountCents", p."paymentIntentId", 'pledge-' || p."id" || '-attempt-' || GREATEST(p."chargeAttempts", 1), p."campaignId", p."id",
  (CASE WHEN p."chargeStatus" IN ('failed', 'requires_action') THEN p."chargeFailureCode" END),
  COALESCE(p."chargedAt", p."createdAt"), COALESCE(p."refundedAt", p."chargedAt", p."createdAt")
FROM "Pledge" p
WHERE p."paymentIntentId" IS NOT NULL AND p."chargeStatus" IN ('succeeded', 'refunded', 'failed', 'requires_action')
ON CONFLICT DO NOTHING;

-- Backfill 2/4: each refund (one per pledge: its key is the one it was sent under: refund-<pledgeId>).
INSERT INTO "MoneyMovement" ("kind", "purpose", "state", "amountCents", "providerId", "idempotencyKey", "campaignId", "pledgeId", "sourceId", "createdAt", "updatedAt")
SELECT 'refund', 'ticket', 'succeeded', p."amountCents", p."refundId", 'refund-' || p."id", p."campaignId", p."id",
  (SELECT c."id" FROM "MoneyMovement" c WHERE c."pledgeId" = p."id" AND c."kind" = 'charge' AND c."state" = 'succeeded'),
  COALESCE(p."refundedAt", p."createdAt"), COALESCE(p."refundedAt", p."createdAt")
FROM "Pledge" p
WHERE p."refundId" IS NOT NULL
ON CONFLICT DO NOTHING;

-- Backfill 3/4: each Payout row (transfers and reversals), under its own key payout-<campaignId>-<seq>.
INSERT INTO "MoneyMovement" ("kind", "purpose", "state", "amountCents", "providerId", "idempotencyKey", "campaignId", "payoutId", "createdAt", "updatedAt")
SELECT o."kind"::text::"MoneyKind", 'payout', o."status"::text::"MoneyState", o."amountCents", o."providerId",
  'payout-' || o."campaignId" || '-' || o."seq", o."campaignId", o."id", o."createdAt", COALESCE(o."completedAt", o."createdAt")
FROM "Payout" o
ON CONFLICT DO NOTHING;

-- Backfill 4/4: a reversal names the transfer it takes back from.
UPDATE "MoneyMovement" r SET "sourceId" = t."id"
FROM "Payout" o, "MoneyMovement" t
WHERE r."kind" = 'reversal' AND r."sourceId" IS NULL AND o."id" = r."payoutId" AND t."payoutId" = o."reversedPayoutId";
