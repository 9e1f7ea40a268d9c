-- AlterTable
ALTER TABLE "ModerationLog" ADD COLUMN     "reason" TEXT;

-- The reason is an admin's short note to the organizer (lib/campaigns/limits REJECT_REASON_MAX)
ALTER TABLE "ModerationLog" ADD CONSTRAINT "ModerationLog_reason_length" CHECK (char_length("reason") <= 500);
