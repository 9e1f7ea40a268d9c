-- Issue 37, paid groups: a group's seats are paid by ONE charge of seats × price on the holder's card.
-- The charge is one MoneyMovement (its pledgeId: the unit's first seat, the holder's own at the tip);
-- MoneyMovementPledge says which seats it covers and each seat's share. A movement without rows here
-- covers its own pledge (every charge before groups, every single commitment).
-- Pledge.chargeUnitId: the charge unit a seat was last claimed in (its first seat's id), so a stale
-- claim is re-driven with the same key for the same seats.

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN "chargeUnitId" TEXT;

-- CreateTable
CREATE TABLE "MoneyMovementPledge" (
    "movementId" BIGINT NOT NULL,
    "pledgeId" TEXT NOT NULL,
    "amountCents" BIGINT NOT NULL,

    CONSTRAINT "MoneyMovementPledge_pkey" PRIMARY KEY ("movementId","pledgeId")
);

-- CreateIndex
CREATE INDEX "MoneyMovementPledge_pledgeId_idx" ON "MoneyMovementPledge"("pledgeId");

-- CreateIndex
CREATE INDEX "Pledge_chargeUnitId_idx" ON "Pledge"("chargeUnitId") WHERE ("chargeUnitId" IS NOT NULL);

-- AddForeignKey
ALTER TABLE "MoneyMovementPledge" ADD CONSTRAINT "MoneyMovementPledge_movementId_fkey" FOREIGN KEY ("movementId") REFERENCES "MoneyMovement"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MoneyMovementPledge" ADD CONSTRAINT "MoneyMovementPledge_pledgeId_fkey" FOREIGN KEY ("pledgeId") REFERENCES "Pledge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "MoneyMovementPledge" ADD CONSTRAINT "MoneyMovementPledge_amount_check" CHECK ("amountCents" >= 0);
