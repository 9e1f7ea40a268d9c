import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { signInUrl } from "@/lib/auth/return-path";
import { paymentsMode } from "@/lib/payments/gateway";
import { getPayoutAccountRow } from "@/lib/payouts/accounts";
import { Card } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { setDemoPayoutStateAction } from "@/app/payouts/actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Demo payout onboarding", robots: { index: false } };

/**
 * The demo stand-in for Stripe's hosted onboarding (issue 23), only in demo mode and only for the
 * organizer's own account: it ends the way the organizer picks, as Stripe would report it.
 */
export default async function DemoOnboardingPage({
  searchParams,
}: {
  searchParams: Promise<{ account?: string }>;
}) {
  if (paymentsMode() !== "demo") notFound();
  const viewer = await getViewer();
  const { account } = await searchParams;
  if (!viewer) redirect(signInUrl(`/payouts/demo?account=${encodeURIComponent(account ?? "")}`));
  const row = await getPayoutAccountRow(viewer.id);
  if (!row || row.accountId !== account) notFound();
  return (
    <div className="mx-auto max-w-xl px-4 py-6 sm:py-10">
      <p className="rounded-lg bg-amber-100 px-4 py-3 text-sm font-semibold text-amber-900 ring-1 ring-amber-300">
        DEMO — this page stands in for Stripe&apos;s onboarding. No bank details are asked for and no money
        moves.
      </p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">Set up payouts</h1>
      <p className="mt-1 text-slate-600">
        With Stripe, you would enter your business and bank details here. Pick how the demo onboarding ends:
      </p>
      <Card className="mt-6">
        <form action={setDemoPayoutStateAction} className="flex flex-col gap-3">
          <input type="hidden" name="account" value={row.accountId} />
          <button type="submit" name="outcome" value="ready" className={buttonClass("primary")}>
            Complete onboarding (account ready)
          </button>
          <button type="submit" name="outcome" value="restricted" className={buttonClass("secondary")}>
            Finish with a problem (account restricted)
          </button>
          <button type="submit" name="outcome" value="pending" className={buttonClass("secondary")}>
            Leave without finishing (setup pending)
          </button>
        </form>
        <p className="mt-3 text-xs text-slate-500">Demo account {row.accountId}</p>
      </Card>
    </div>
  );
}
