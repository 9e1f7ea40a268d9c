import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { canModerate } from "@/lib/access/rules";
import { getPayoutAttention } from "@/lib/payouts/queries";
import { formatCents } from "@/lib/format";
import { formatInZone } from "@/lib/campaigns/event-time";
import { YourTime } from "@/components/time/your-time";
import { Card } from "@/components/ui/card";
import { HoldPayout } from "@/components/payouts/hold-payout";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payouts — Admin", robots: { index: false } };

/** Admins' payouts (issue 23): accounts needing attention, held payouts, refunds not taken back, upcoming payouts. */
export default async function AdminPayoutsPage() {
  const viewer = await getViewer();
  if (!canModerate(viewer)) redirect("/");
  const a = await getPayoutAttention();
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-6 sm:py-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-3xl font-bold text-slate-900">Payouts</h1>
        <Link href="/admin" className="text-sm font-semibold text-brand-700 hover:underline">
          ← Admin dashboard
        </Link>
      </div>

      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Held payouts</h2>
        {a.held.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No payout is held.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {a.held.map((h) => (
              <li key={h.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <span className="min-w-0">
                  <Link
                    href={`/campaign/${h.id}/manage`}
                    className="font-medium text-slate-900 hover:underline"
                  >
                    {h.title}
                  </Link>
                  <span className="block text-sm text-slate-600">
                    Held {formatInZone(h.at, "UTC")}
                    <YourTime iso={h.at} zone="UTC" />: {h.reason}
                  </span>
                </span>
                <HoldPayout campaignId={h.id} title={h.title} held />
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Upcoming payouts</h2>
        {a.upcoming.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No tipped paid event is waiting to be paid out.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {a.upcoming.map((u) => (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">{u.title}</span>
                  <span className="block text-sm text-slate-600">
                    {formatCents(u.pendingCents)} to {u.organizer}, from {formatInZone(u.availableAt, "UTC")}
                    <YourTime iso={u.availableAt} zone="UTC" />
                  </span>
                </span>
                <HoldPayout campaignId={u.id} title={u.title} held={false} />
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Needs attention</h2>
        {a.accounts.length + a.shortfalls.length + a.failed.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Nothing needs attention.</p>
        ) : (
          <ul className="mt-2 space-y-2 text-sm">
            {a.accounts.map((x) => (
              <li key={x.userId}>
                <strong>Payout account restricted:</strong> {x.email}
                {x.requirements ? ` — ${x.requirements}` : ""}
              </li>
            ))}
            {a.shortfalls.map((x) => (
              <li key={x.id}>
                <strong>Refunds not taken back:</strong> {formatCents(x.cents)} on &quot;{x.title}&quot; could
                not be reversed from the organizer&apos;s account.
              </li>
            ))}
            {a.failed.map((x) => (
              <li key={x.id}>
                <strong>{x.kind === "transfer" ? "Transfer" : "Reversal"} failed:</strong>{" "}
                {formatCents(x.cents)} for &quot;{x.title}&quot; ({formatInZone(x.at, "UTC")}): {x.message}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
