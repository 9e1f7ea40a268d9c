import type { Metadata } from "next";
import Link from "next/link";
import { CONFIRM_TEXT, confirmationEmailFor } from "@/lib/auth/email-confirmation";
import { ConfirmEmailForm } from "@/components/auth/password-forms";
import { confirmEmailAction } from "@/app/verify-email/actions";

export const metadata: Metadata = { title: "Confirm your email", robots: { index: false } };

type Props = { searchParams: Promise<{ token?: string | string[] }> };

/**
 * The link in the confirmation email: the person confirming chooses the account's password, then
 * confirms (a POST; a GET alone changes nothing, so mail scanners opening the link confirm nothing).
 */
export default async function VerifyEmailPage({ searchParams }: Props) {
  const sp = await searchParams;
  const token = typeof sp.token === "string" ? sp.token : "";
  const email = await confirmationEmailFor(token);
  return (
    <div className="px-4 py-10 sm:py-16">
      {email ? (
        <ConfirmEmailForm token={token} email={email} confirmAction={confirmEmailAction} />
      ) : (
        <div className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold text-slate-900">Confirm your email</h1>
          <p role="alert" className="mt-3 text-slate-700">
            {CONFIRM_TEXT.invalid}
          </p>
          <Link
            href="/profile"
            className="mt-6 inline-block text-sm font-semibold text-brand-700 hover:underline"
          >
            Go to sign in
          </Link>
        </div>
      )}
    </div>
  );
}
