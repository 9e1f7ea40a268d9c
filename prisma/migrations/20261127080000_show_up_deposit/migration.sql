-- Issue 36 item 3: the show-up deposit (lib/deposits, docs/decisions/show-up-deposit.md). An event's
-- deposit is charged with the ticket at the tip (its own money row, purpose deposit), refunded once
-- by a partial refund at check-in, kept after the event's end plus the grace.

-- AlterEnum
ALTER TYPE "MoneyPurpose" ADD VALUE 'deposit';

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN "depositCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "depositGraceHours" INTEGER NOT NULL DEFAULT 24;

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN "depositExcusedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "DemoPaymentIntent" ADD COLUMN "refundedCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "refundKeys" JSONB;

-- the create form's bounds, held by the database too (no deposit above $500, a grace of 1 hour to 7 days)
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_deposit_check"
  CHECK ("depositCents" >= 0 AND "depositCents" <= 50000 AND "depositGraceHours" BETWEEN 1 AND 168);
