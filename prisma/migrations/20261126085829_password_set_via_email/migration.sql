-- Issue 31 item 3: ADMIN_EMAILS is granted only to an account whose password was set through an emailed link
-- (the confirmation page or a reset link) or that has no password (Google). Existing passwords were chosen at
-- sign-up, by whoever registered the address, so they all start without the mark: their accounts become admin
-- through ADMIN_EMAILS only after a reset link sets the password. Admins granted before are kept.

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "passwordSetViaEmailAt" TIMESTAMPTZ(3);
