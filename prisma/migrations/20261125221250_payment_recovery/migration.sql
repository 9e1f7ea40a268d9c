-- Issue 19 (DESIGN §1 "failed payments"): a failed charge opens a recovery window. The window opens
-- once per pledge, when its charge state first becomes failed or requires_action, whoever writes it
-- (the charging run, the webhook, the backer's own payment): a trigger stamps "paymentFailedAt".
-- The window's length (PAYMENT_RECOVERY_DAYS) and the event start are applied by the app
-- (lib/charging/payment-window.ts). Existing failed pledges start their window at this migration.
-- Function bodies write their semicolons as \073 inside E'' strings (see stored_numbers).

-- AlterTable
ALTER TABLE "Pledge" ADD COLUMN     "droppedAt" TIMESTAMPTZ(3),
ADD COLUMN     "paymentFailedAt" TIMESTAMPTZ(3),
ADD COLUMN     "paymentRemindedAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Pledge_recovery_idx" ON "Pledge"("paymentFailedAt") WHERE ("withdrawnAt" IS NULL AND "chargeStatus" IN ('failed', 'requires_action'));

UPDATE "Pledge" SET "paymentFailedAt" = now()
WHERE "chargeStatus" IN ('failed', 'requires_action') AND "withdrawnAt" IS NULL AND "paymentFailedAt" IS NULL;

CREATE OR REPLACE FUNCTION pn_payment_failed_at() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW."paymentFailedAt" IS NULL AND NEW."chargeStatus" IN (''failed'', ''requires_action'') THEN
    NEW."paymentFailedAt" := now()\073
  END IF\073
  RETURN NEW\073
END
';

CREATE TRIGGER pn_payment_failed_at BEFORE INSERT OR UPDATE OF "chargeStatus" ON "Pledge"
FOR EACH ROW EXECUTE FUNCTION pn_payment_failed_at();
