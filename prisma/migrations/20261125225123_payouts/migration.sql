-- Issue 23: organizers get paid. Payout accounts (Stripe Connect Express or the demo stand-in), one
-- row per money movement to or from an organizer (claimed before the provider is called), the
-- provider's fee per charge, and an admin's hold on an event's payout.

-- CreateEnum
CREATE TYPE "PayoutAccountStatus" AS ENUM ('pending', 'ready', 'restricted');

-- CreateEnum
CREATE TYPE "PayoutKind" AS ENUM ('transfer', 'reversal');

-- CreateEnum
CREATE TYPE "PayoutStatus" AS ENUM ('processing', 'succeeded', 'failed');

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "payoutHeldAt" TIMESTAMPTZ(3),
ADD COLUMN     "payoutHeldById" TEXT,
ADD COLUMN     "payoutHoldReason" TEXT,
ADD COLUMN     "payoutShortfallCents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "payoutSettledAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN     "processingFeeCents" INTEGER;

-- CreateTable
CREATE TABLE "PayoutAccount" (
    "userId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "status" "PayoutAccountStatus" NOT NULL DEFAULT 'pending',
    "requirements" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PayoutAccount_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "Payout" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" "PayoutKind" NOT NULL,
    "amountCents" BIGINT NOT NULL,
    "accountId" TEXT NOT NULL,
    "status" "PayoutStatus" NOT NULL DEFAULT 'processing',
    "providerId" TEXT,
    "reversedPayoutId" TEXT,
    "failureMessage" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Payout_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PayoutAccount_accountId_key" ON "PayoutAccount"("accountId");

-- CreateIndex
CREATE INDEX "PayoutAccount_status_idx" ON "PayoutAccount"("status");

-- CreateIndex
CREATE UNIQUE INDEX "Payout_providerId_key" ON "Payout"("providerId");

-- CreateIndex
CREATE INDEX "Payout_status_createdAt_idx" ON "Payout"("status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Payout_campaignId_seq_key" ON "Payout"("campaignId", "seq");

-- AddForeignKey
ALTER TABLE "PayoutAccount" ADD CONSTRAINT "PayoutAccount_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: a movement moves money, a hold says why.
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_amount_positive" CHECK ("amountCents" > 0);
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_payout_hold_reason_length" CHECK ("payoutHoldReason" IS NULL OR char_length("payoutHoldReason") BETWEEN 1 AND 500);
