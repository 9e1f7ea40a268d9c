-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "CampaignStatus" AS ENUM ('pending', 'funded', 'charging', 'charged', 'expired', 'cancelled');

-- CreateEnum
CREATE TYPE "ApprovalStatus" AS ENUM ('pending', 'approved', 'rejected');

-- CreateEnum
CREATE TYPE "PactType" AS ENUM ('paction', 'crowdfund');

-- CreateEnum
CREATE TYPE "IdentityRevelation" AS ENUM ('never', 'onStart', 'immediate');

-- CreateEnum
CREATE TYPE "PaymentType" AS ENUM ('venmo', 'paypal', 'other');

-- CreateEnum
CREATE TYPE "ChargeType" AS ENUM ('paid', 'free');

-- CreateEnum
CREATE TYPE "PledgeChargeStatus" AS ENUM ('none', 'processing', 'succeeded', 'failed', 'requires_action', 'refunded');

-- CreateEnum
CREATE TYPE "EmailStatus" AS ENUM ('pending', 'sent', 'failed');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "image" TEXT,
    "emailVerified" TIMESTAMPTZ(3),
    "passwordHash" TEXT,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "stripeCustomerId" TEXT,
    "emailOptOut" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "sessionToken" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VerificationToken" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL
);

-- CreateTable
CREATE TABLE "Campaign" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "logisticalDetails" TEXT,
    "goal" INTEGER NOT NULL,
    "currentAmount" INTEGER NOT NULL DEFAULT 0,
    "committedCount" INTEGER NOT NULL DEFAULT 0,
    "pledgeCount" INTEGER NOT NULL DEFAULT 0,
    "raisedCents" INTEGER NOT NULL DEFAULT 0,
    "deadline" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "creatorId" TEXT NOT NULL,
    "creatorEmail" TEXT NOT NULL,
    "status" "CampaignStatus" NOT NULL DEFAULT 'pending',
    "approvalStatus" "ApprovalStatus" NOT NULL DEFAULT 'pending',
    "approvalUpdatedAt" TIMESTAMPTZ(3),
    "approvalUpdatedById" TEXT,
    "pactType" "PactType" DEFAULT 'paction',
    "isTest" BOOLEAN NOT NULL DEFAULT false,
    "ticketPriceCents" INTEGER NOT NULL DEFAULT 0,
    "refundBonusPercentage" INTEGER NOT NULL DEFAULT 0,
    "paymentType" "PaymentType",
    "paymentMethod" TEXT,
    "attendeesAnonymous" BOOLEAN NOT NULL DEFAULT true,
    "identityRevelationType" "IdentityRevelation" NOT NULL DEFAULT 'never',
    "acceptAfterThreshold" BOOLEAN NOT NULL DEFAULT false,
    "chargeType" "ChargeType",
    "fundedAt" TIMESTAMPTZ(3),
    "chargedAt" TIMESTAMPTZ(3),
    "totalCharged" INTEGER NOT NULL DEFAULT 0,
    "totalChargedCents" INTEGER NOT NULL DEFAULT 0,
    "lastStatusUpdate" TIMESTAMPTZ(3),
    "cancelledAt" TIMESTAMPTZ(3),
    "reminderSentAt" TIMESTAMPTZ(3),

    CONSTRAINT "Campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Pledge" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "amount" INTEGER NOT NULL DEFAULT 1,
    "amountCents" INTEGER NOT NULL DEFAULT 0,
    "contributor" TEXT NOT NULL,
    "message" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "charged" BOOLEAN NOT NULL DEFAULT false,
    "paymentMethodId" TEXT,
    "cardBrand" TEXT,
    "cardLast4" TEXT,
    "paymentMethod" TEXT NOT NULL DEFAULT 'Not specified',
    "chargeStatus" "PledgeChargeStatus" NOT NULL DEFAULT 'none',
    "chargeAttempts" INTEGER NOT NULL DEFAULT 0,
    "chargeClaimedAt" TIMESTAMPTZ(3),
    "chargeFailureCode" TEXT,
    "chargeFailureMessage" TEXT,
    "chargedAt" TIMESTAMPTZ(3),
    "chargeType" "ChargeType",
    "paymentIntentId" TEXT,
    "refundId" TEXT,
    "refundedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Pledge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Comment" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CampaignUpdate" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CampaignUpdate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CampaignDraft" (
    "id" TEXT NOT NULL,
    "creatorId" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "logisticalDetails" TEXT,
    "goal" INTEGER,
    "deadline" TIMESTAMPTZ(3),
    "ticketPriceCents" INTEGER,
    "pactType" "PactType",
    "attendeesAnonymous" BOOLEAN NOT NULL DEFAULT true,
    "identityRevelationType" "IdentityRevelation",
    "refundBonusEnabled" BOOLEAN NOT NULL DEFAULT false,
    "refundBonusPercentage" INTEGER NOT NULL DEFAULT 0,
    "isTest" BOOLEAN NOT NULL DEFAULT false,
    "acceptAfterThreshold" BOOLEAN NOT NULL DEFAULT false,
    "paymentType" "PaymentType",
    "paymentMethod" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CampaignDraft_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModerationLog" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "fromStatus" "ApprovalStatus",
    "toStatus" "ApprovalStatus" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModerationLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EmailOutbox" (
    "id" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "toEmail" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "attachments" JSONB,
    "status" "EmailStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMPTZ(3),

    CONSTRAINT "EmailOutbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimitHit" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RateLimitHit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProviderRateSlot" (
    "key" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "usedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ProviderRateSlot_pkey" PRIMARY KEY ("key","slot")
);

-- CreateTable
CREATE TABLE "StripeEvent" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" TIMESTAMPTZ(3),

    CONSTRAINT "StripeEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DemoPaymentMethod" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "expMonth" INTEGER NOT NULL,
    "expYear" INTEGER NOT NULL,
    "behavior" TEXT NOT NULL,
    "detached" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DemoPaymentMethod_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DemoPaymentIntent" (
    "id" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "paymentMethodId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "failureCode" TEXT,
    "refunded" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DemoPaymentIntent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_stripeCustomerId_key" ON "User"("stripeCustomerId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Account_provider_providerAccountId_key" ON "Account"("provider", "providerAccountId");

-- CreateIndex
CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session"("sessionToken");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "VerificationToken_token_key" ON "VerificationToken"("token");

-- CreateIndex
CREATE UNIQUE INDEX "VerificationToken_identifier_token_key" ON "VerificationToken"("identifier", "token");

-- CreateIndex
CREATE INDEX "Campaign_approvalStatus_createdAt_idx" ON "Campaign"("approvalStatus", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Campaign_creatorId_createdAt_idx" ON "Campaign"("creatorId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Campaign_status_deadline_idx" ON "Campaign"("status", "deadline");

-- CreateIndex
CREATE INDEX "Campaign_isTest_idx" ON "Campaign"("isTest");

-- CreateIndex
CREATE UNIQUE INDEX "Pledge_paymentIntentId_key" ON "Pledge"("paymentIntentId");

-- CreateIndex
CREATE UNIQUE INDEX "Pledge_refundId_key" ON "Pledge"("refundId");

-- CreateIndex
CREATE INDEX "Pledge_campaignId_createdAt_idx" ON "Pledge"("campaignId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Pledge_campaignId_chargeStatus_idx" ON "Pledge"("campaignId", "chargeStatus");

-- CreateIndex
CREATE INDEX "Pledge_userId_createdAt_idx" ON "Pledge"("userId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Pledge_campaignId_userId_key" ON "Pledge"("campaignId", "userId");

-- CreateIndex
CREATE INDEX "Comment_campaignId_createdAt_idx" ON "Comment"("campaignId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Comment_authorId_idx" ON "Comment"("authorId");

-- CreateIndex
CREATE INDEX "CampaignUpdate_campaignId_createdAt_idx" ON "CampaignUpdate"("campaignId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "CampaignDraft_creatorId_updatedAt_idx" ON "CampaignDraft"("creatorId", "updatedAt" DESC);

-- CreateIndex
CREATE INDEX "ModerationLog_campaignId_createdAt_idx" ON "ModerationLog"("campaignId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "EmailOutbox_dedupeKey_key" ON "EmailOutbox"("dedupeKey");

-- CreateIndex
CREATE INDEX "EmailOutbox_status_createdAt_idx" ON "EmailOutbox"("status", "createdAt");

-- CreateIndex
CREATE INDEX "EmailOutbox_createdAt_idx" ON "EmailOutbox"("createdAt" DESC);

-- CreateIndex
CREATE INDEX "RateLimitHit_key_createdAt_idx" ON "RateLimitHit"("key", "createdAt");

-- CreateIndex
CREATE INDEX "ProviderRateSlot_key_usedAt_idx" ON "ProviderRateSlot"("key", "usedAt");

-- CreateIndex
CREATE INDEX "DemoPaymentMethod_userId_idx" ON "DemoPaymentMethod"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "DemoPaymentIntent_idempotencyKey_key" ON "DemoPaymentIntent"("idempotencyKey");

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignUpdate" ADD CONSTRAINT "CampaignUpdate_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignUpdate" ADD CONSTRAINT "CampaignUpdate_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignDraft" ADD CONSTRAINT "CampaignDraft_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModerationLog" ADD CONSTRAINT "ModerationLog_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModerationLog" ADD CONSTRAINT "ModerationLog_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DemoPaymentMethod" ADD CONSTRAINT "DemoPaymentMethod_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
