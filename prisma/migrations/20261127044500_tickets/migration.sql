-- Issue 36 item 1: one door ticket per confirmed place (docs/decisions/tickets.md)

-- CreateTable
CREATE TABLE "Ticket" (
    "id" TEXT NOT NULL,
    "pledgeId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "tokenSealed" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "issuedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Ticket_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Ticket_pledgeId_key" ON "Ticket"("pledgeId");

-- CreateIndex
CREATE UNIQUE INDEX "Ticket_tokenHash_key" ON "Ticket"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "Ticket_campaignId_code_key" ON "Ticket"("campaignId", "code");

-- AddForeignKey
ALTER TABLE "Ticket" ADD CONSTRAINT "Ticket_pledgeId_fkey" FOREIGN KEY ("pledgeId") REFERENCES "Pledge"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Prisma's differ ignores CHECK constraints: the code's shape is repeated here by hand.
ALTER TABLE "Ticket" ADD CONSTRAINT "Ticket_code_shape" CHECK ("code" ~ '^[2-9A-HJKMNP-Z]{8}$');
