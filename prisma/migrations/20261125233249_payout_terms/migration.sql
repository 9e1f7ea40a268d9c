-- Issue 23, after review: an event keeps the platform fee terms it was created under (a later change
-- of PLATFORM_FEE_BPS or PLATFORM_FEE_FIXED_CENTS does not reprice its past charges), and the payout
-- sweeper looks at the longest-unseen events first.

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "payoutCheckedAt" TIMESTAMPTZ(3),
ADD COLUMN     "platformFeeBps" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "platformFeeFixedCents" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_platform_fee_terms" CHECK ("platformFeeBps" BETWEEN 0 AND 5000 AND "platformFeeFixedCents" BETWEEN 0 AND 1000);
