import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/auth/password-forms";
import { requestPasswordResetAction } from "@/app/forgot-password/actions";

export const metadata: Metadata = { title: "Forgot password", robots: { index: false } };

/** "Forgot password?" (issue 18): the email with a single-use reset link. */
export default function ForgotPasswordPage() {
  return (
    <div className="px-4 py-10 sm:py-16">
      <ForgotPasswordForm requestAction={requestPasswordResetAction} />
    </div>
  );
}
