-- Issue 32: the pledge rules are built from the standing (lib/events/standing.ts), so the recovery pass asks for
-- standing IN (in, conditional): its partial index says the same, or the planner could not use it.

-- DropIndex
DROP INDEX "Pledge_recovery_idx";

-- CreateIndex
CREATE INDEX "Pledge_recovery_idx" ON "Pledge"("paymentFailedAt") WHERE ("standing" = ANY (ARRAY['in'::"PledgeStanding", 'conditional'::"PledgeStanding"])) AND ("chargeStatus" = ANY (ARRAY['failed'::"PledgeChargeStatus", 'requires_action'::"PledgeChargeStatus"]));
