-- Issue 37 item 1, named friends (docs/decisions/group-commitments.md): the holder names a friend by
-- email for one guest seat, and the friend claims it into their own account through a link. The raw
-- token is only in the email: the row keeps its SHA-256. One live invitation per seat.

-- CreateTable
CREATE TABLE "SeatInvite" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "pledgeId" TEXT NOT NULL,
    "inviterId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimedAt" TIMESTAMPTZ(3),
    "claimedById" TEXT,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "SeatInvite_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SeatInvite_tokenHash_key" ON "SeatInvite"("tokenHash");

-- CreateIndex: one live invitation per guest seat
CREATE UNIQUE INDEX "SeatInvite_live_key" ON "SeatInvite"("pledgeId") WHERE (("claimedAt" IS NULL) AND ("revokedAt" IS NULL));

-- CreateIndex
CREATE INDEX "SeatInvite_campaignId_inviterId_idx" ON "SeatInvite"("campaignId", "inviterId");

-- AddForeignKey
ALTER TABLE "SeatInvite" ADD CONSTRAINT "SeatInvite_pledgeId_fkey" FOREIGN KEY ("pledgeId") REFERENCES "Pledge"("id") ON DELETE CASCADE ON UPDATE CASCADE;
