import type { Metadata } from "next";
import Link from "next/link";
import { isValidResetToken, RESET_TEXT } from "@/lib/auth/password-reset";
import { ResetPasswordForm } from "@/components/auth/password-forms";
import { resetPasswordAction } from "@/app/reset-password/actions";

export const metadata: Metadata = { title: "Choose a new password", robots: { index: false } };

type Props = { searchParams: Promise<{ token?: string | string[] }> };

/** The link in the reset email: a form for the new password (a GET alone changes nothing). */
export default async function ResetPasswordPage({ searchParams }: Props) {
  const sp = await searchParams;
  const token = typeof sp.token === "string" ? sp.token : "";
  const valid = await isValidResetToken(token);
  return (
    <div className="px-4 py-10 sm:py-16">
      {valid ? (
        <ResetPasswordForm token={token} resetAction={resetPasswordAction} />
      ) : (
        <div className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold text-slate-900">Choose a new password</h1>
          <p role="alert" className="mt-3 text-slate-700">
            {RESET_TEXT.invalid}
          </p>
          <Link
            href="/forgot-password"
            className="mt-6 inline-block text-sm font-semibold text-brand-700 hover:underline"
          >
            Send a new link
          </Link>
        </div>
      )}
    </div>
  );
}
