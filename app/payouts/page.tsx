import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { signInUrl } from "@/lib/auth/return-path";
import { PAYOUT_TEXTS, refreshPayoutAccount } from "@/lib/payouts/accounts";
import { getPayoutsView, type PayoutEvent } from "@/lib/payouts/queries";
import { payoutHoldDays } from "@/lib/payouts/ledger";
import { formatCents } from "@/lib/format";
import { formatInZone } from "@/lib/campaigns/event-time";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { YourTime } from "@/components/time/your-time";
import { startPayoutOnboardingAction } from "@/app/payouts/actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payouts", robots: { index: false } };

const ACCOUNT = {
  not_started: {
    tone: "slate",
    label: "Not set up",
    text: "Connect a payout account to receive the money your paid events collect. A paid event is approved once you have.",
    button: "Set up payouts",
  },
  pending: {
    tone: "amber",
    label: "Setup not finished",
    text: "Your payout account is created but its details are not complete yet.",
    button: "Continue setup",
  },
  ready: {
    tone: "green",
    label: "Ready",
    text: "Your events' money is transferred to this account after each event's hold.",
    button: "Update payout details",
  },
  restricted: {
    tone: "red",
    label: "Needs attention",
    text: "Transfers are paused until your payout details are updated.",
    button: "Update payout details",
  },
} as const;

const ERRORS: Record<string, string> = {
  onboarding: "Payout setup could not be started just now. Please try again in a minute.",
  demo: "That demo choice could not be saved. Please try again.",
  unconfirmed: PAYOUT_TEXTS.unconfirmed,
};

/** The organizer's payouts (issue 23): their account, each tipped paid event's money, and every movement. */
export default async function PayoutsPage({
  searchParams,
}: {
  searchParams: Promise<{ from?: string; error?: string }>;
}) {
  const viewer = await getViewer();
  if (!viewer) redirect(signInUrl("/payouts"));
  const { from, error } = await searchParams;
  // Back from the provider's onboarding: read the account's state now rather than wait for its webhook.
  if (from === "onboarding") await refreshPayoutAccount(viewer.id).catch(() => null);
  const view = await getPayoutsView(viewer);
  const a = ACCOUNT[view.account.status];
  const t = view.totals;

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Payouts</h1>
      <p className="mt-1 text-slate-600">
        What your paid events collected, what was taken out, and what reaches you. Money moves{" "}
        {payoutHoldDays()} days after an event reaches its goal, once failed payments have had their chance.
      </p>
      {error && ERRORS[error] && (
        <p
          role="alert"
          className="mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200"
        >
          {ERRORS[error]}
        </p>
      )}

      <Card className="mt-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="text-lg font-semibold text-slate-900">Payout account</h2>
              <Badge tone={a.tone}>{a.label}</Badge>
              {view.account.provider === "demo" && <Badge tone="amber">Demo</Badge>}
            </div>
            <p className="mt-1 text-sm text-slate-700">{a.text}</p>
            {view.account.requirements && (
              <p className="mt-1 text-sm text-red-800">{view.account.requirements}</p>
            )}
          </div>
          <form action={startPayoutOnboardingAction}>
            <button
              type="submit"
              className={buttonClass(view.account.status === "ready" ? "secondary" : "primary")}
            >
              {a.button}
            </button>
          </form>
        </div>
      </Card>

      <section aria-label="Totals" className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {[
          ["Collected", t.collectedCents],
          ["Fees", t.platformFeeCents + t.processingFeeCents],
          ["Refunded", t.refundedCents],
          ["Refunds pending", t.owedBackCents],
          ["Paid out", t.paidOutCents],
          ["Pending", t.pendingCents],
        ].map(([label, cents]) => (
          <div
            key={label}
            className="min-w-0 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4"
          >
            <p className="text-xs font-medium text-slate-500 sm:text-sm">{label}</p>
            <p className="mt-1 truncate text-xl font-bold text-slate-900 sm:text-2xl">
              {formatCents(Number(cents))}
            </p>
          </div>
        ))}
      </section>

      <Card className="mt-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold text-slate-900">By event</h2>
          {view.events.length > 0 && (
            <a href="/payouts/payouts.csv" download className={buttonClass("secondary", "sm")}>
              Export CSV
            </a>
          )}
        </div>
        {view.events.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">
            No paid event of yours has reached its goal yet. When one does, its money shows here.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100">
            {view.events.map((e) => (
              <li key={e.campaignId} className="py-4">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <Link
                    href={`/campaign/${e.campaignId}/manage`}
                    className="font-semibold text-slate-900 hover:underline"
                  >
                    {e.title}
                  </Link>
                  {e.held ? (
                    <Badge tone="red">Payout held</Badge>
                  ) : e.pendingCents > 0 ? (
                    <Badge tone="amber">Payout pending</Badge>
                  ) : e.paidOutCents > 0 ? (
                    <Badge tone="green">Paid out</Badge>
                  ) : (
                    <Badge>Nothing to pay</Badge>
                  )}
                </div>
                <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4 lg:grid-cols-8">
                  {[
                    ["Collected", e.ledger.collectedCents],
                    ["Platform fee", e.ledger.platformFeeCents],
                    ["Processing fee", e.ledger.processingFeeCents],
                    ["Refunded", e.ledger.refundedCents],
                    ["Refunds pending", e.ledger.owedBackCents],
                    ["Net", e.ledger.netCents],
                    ["Paid out", e.paidOutCents],
                    ["Pending", e.pendingCents],
                  ].map(([label, cents]) => (
                    <div key={label}>
                      <dt className="text-slate-500">{label}</dt>
                      <dd className="font-medium text-slate-900">{formatCents(Number(cents))}</dd>
                    </div>
                  ))}
                </dl>
                {e.deposit && <DepositLines e={e} />}
                <p className="mt-2 text-sm text-slate-600">
                  {e.held ? (
                    <>Held by PactNexus: {e.held.reason}</>
                  ) : e.nextPayoutAt ? (
                    <>
                      Next payout: {formatInZone(e.nextPayoutAt, e.timeZone)}
                      <YourTime iso={e.nextPayoutAt} zone={e.timeZone} />
                    </>
                  ) : e.pendingCents > 0 ? (
                    <>Waiting for your payout account to be ready.</>
                  ) : null}
                  {e.ledger.feesUnknown > 0 && " Processing fees are being read from the payment provider."}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>

      {view.movements.length > 0 && (
        <Card className="mt-6">
          <h2 className="text-lg font-semibold text-slate-900">Transfers</h2>
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {view.movements.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">
                    {m.kind === "transfer" ? "Transfer" : "Taken back (refund)"} ·{" "}
                    {formatCents(m.amountCents)}
                  </span>{" "}
                  <span className="text-slate-500">
                    {m.title} · {formatInZone(m.at, m.timeZone)}
                    <YourTime iso={m.at} zone={m.timeZone} />
                  </span>
                  {m.failureMessage && <span className="block text-red-700">{m.failureMessage}</span>}
                </span>
                <span className="flex items-center gap-2">
                  {m.providerId && <code className="text-xs text-slate-500">{m.providerId}</code>}
                  <Badge tone={m.status === "succeeded" ? "green" : m.status === "failed" ? "red" : "brand"}>
                    {m.status === "succeeded" ? "Sent" : m.status === "failed" ? "Failed" : "In progress"}
                  </Badge>
                </span>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}

/**
 * An event's show-up deposits (issue 36 item 3), the ledger's figures: held out of the payout until
 * the end plus the grace (when), kept by no-shows (paid out less the platform fee), refunded.
 */
function DepositLines({ e }: { e: PayoutEvent }) {
  const l = e.ledger;
  const keptAt = e.deposit?.keptAt;
  return (
    <div
      className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700"
      data-testid="payout-deposits"
    >
      <p className="font-medium text-slate-900">Show-up deposits</p>
      <ul className="mt-1 space-y-0.5">
        <li>
          Held: {formatCents(l.depositHeldCents)}
          {l.depositHeldCents > 0 && keptAt && (
            <>
              {" "}
              until {formatInZone(keptAt, e.timeZone)}
              <YourTime iso={keptAt} zone={e.timeZone} />
            </>
          )}
        </li>
        <li>
          Kept: {formatCents(l.depositKeptCents)}
          {l.depositKeptCount > 0 && ` (${l.depositKeptCount} not checked in)`}, platform fee on them{" "}
          {formatCents(l.depositFeeCents)}
        </li>
        <li>Refunded: {formatCents(l.depositRefundedCents)}</li>
      </ul>
    </div>
  );
}
