import type { Metadata } from "next";
import Link from "next/link";
import { CONFIRM_TEXT, isValidConfirmationToken } from "@/lib/auth/email-confirmation";
import { confirmEmailAction } from "@/app/verify-email/actions";

export const metadata: Metadata = { title: "Confirm your email", robots: { index: false } };

type Props = { searchParams: Promise<{ token?: string | string[]; done?: string; invalid?: string }> };

/** The link in the confirmation email: one click on a button confirms (a GET alone changes nothing). */
export default async function VerifyEmailPage({ searchParams }: Props) {
  const sp = await searchParams;
  const token = typeof sp.token === "string" ? sp.token : "";
  const valid = !sp.done && !sp.invalid && (await isValidConfirmationToken(token));
  return (
    <div className="mx-auto max-w-lg px-4 py-12">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Confirm your email</h1>
        {sp.done ? (
          <p role="status" className="mt-3 text-slate-700">
            {CONFIRM_TEXT.confirmed}
          </p>
        ) : !valid ? (
          <p role="alert" className="mt-3 text-slate-700">
            {CONFIRM_TEXT.invalid}
          </p>
        ) : (
          <form action={confirmEmailAction} className="mt-3 space-y-4">
            <p className="text-slate-700">Confirm that this email address is yours.</p>
            <input type="hidden" name="token" value={token} />
            <button
              type="submit"
              className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            >
              Confirm my email
            </button>
          </form>
        )}
        <Link
          href="/profile"
          className="mt-6 inline-block text-sm font-semibold text-brand-700 hover:underline"
        >
          Go to your profile
        </Link>
      </div>
    </div>
  );
}
