import type { Metadata } from "next";
import Link from "next/link";
import { verifyUnsubscribeToken } from "@/lib/email/unsubscribe";
import { unsubscribeAction } from "@/app/unsubscribe/actions";

export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false } };

type Props = { searchParams: Promise<{ token?: string | string[]; done?: string; invalid?: string }> };

/**
 * Unsubscribing needs a click on a button (a POST): mail scanners that open every link in an
 * email must not unsubscribe people.
 */
export default async function UnsubscribePage({ searchParams }: Props) {
  const sp = await searchParams;
  const token = typeof sp.token === "string" ? sp.token : "";
  const valid = Boolean(verifyUnsubscribeToken(token));
  return (
    <div className="mx-auto max-w-lg px-4 py-12">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Email preferences</h1>
        {sp.done ? (
          <p className="mt-3 text-slate-700">
            You are unsubscribed. You will still get emails about your commitments and payments.
          </p>
        ) : sp.invalid || !valid ? (
          <p className="mt-3 text-slate-700">
            This unsubscribe link is not valid. Please use the link from your latest email.
          </p>
        ) : (
          <form action={unsubscribeAction} className="mt-3 space-y-4">
            <p className="text-slate-700">
              Stop reminders, organizer updates and commitment digests? Emails about your commitments and
              payments still arrive.
            </p>
            <input type="hidden" name="token" value={token} />
            <button
              type="submit"
              className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            >
              Unsubscribe
            </button>
          </form>
        )}
        <Link href="/" className="mt-6 inline-block text-sm font-semibold text-brand-700 hover:underline">
          Go Home
        </Link>
      </div>
    </div>
  );
}
