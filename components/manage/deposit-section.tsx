"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/actions";
import type { DepositAttendee, DepositRoster } from "@/lib/pledges/deposits";
import type { DepositState } from "@/lib/events/deposit";
import type { Ledger } from "@/lib/payouts/ledger";
import { formatCents } from "@/lib/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ViewerTime } from "@/components/time/viewer-time";

type Excuse = (pledgeId: string) => Promise<ActionResult<{ excused: true }>>;

const STATE_BADGE: Record<DepositState, { label: string; tone: "slate" | "amber" | "green" | "red" }> = {
  none: { label: "No deposit", tone: "slate" },
  held: { label: "Held", tone: "amber" },
  refunding: { label: "Refund pending", tone: "slate" },
  refunded: { label: "Refunded", tone: "green" },
  kept: { label: "Kept", tone: "red" },
};

/**
 * The manage page's Deposits (issue 36 item 3): the payout ledger's deposit figures (held, refunded,
 * kept, the platform fee on those kept), when deposits are kept, and who has not checked in — each
 * with "Excuse" while the grace lasts (lib/pledges/excuse refunds them, after a confirmation).
 */
export function DepositSection({
  roster,
  money,
  excuseDepositAction,
}: {
  roster: DepositRoster;
  money: Pick<
    Ledger,
    "depositHeldCents" | "depositRefundedCents" | "depositKeptCents" | "depositFeeCents" | "depositKeptCount"
  >;
  /** the page hands its server action down (components never import from app/) */
  excuseDepositAction: Excuse;
}) {
  const router = useRouter();
  const [asking, setAsking] = useState<DepositAttendee | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const amount = formatCents(roster.cents);

  async function excuse() {
    if (!asking) return;
    setBusy(true);
    setError(null);
    try {
      const r = await excuseDepositAction(asking.pledgeId);
      if (!r.ok) return setError(r.error);
      setDone(`${asking.label}'s ${amount} deposit is being refunded.`);
      setAsking(null);
      router.refresh();
    } catch {
      setError("No connection. Nothing was refunded: try again.");
    } finally {
      setBusy(false);
    }
  }

  const figures: [string, number, number | null][] = [
    ["Held", money.depositHeldCents, roster.counts.held],
    ["Refunded", money.depositRefundedCents, roster.counts.refunded],
    ["Kept", money.depositKeptCents, money.depositKeptCount],
    ["Platform fee on kept", money.depositFeeCents, null],
  ];
  return (
    <section
      aria-labelledby="deposits-heading"
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id="deposits-heading" className="text-lg font-bold text-slate-900">
        Deposits
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {amount} show-up deposit per place, refunded when the ticket is checked in.{" "}
        {roster.keptAt && (
          <>
            {roster.open ? "Deposits of people not checked in are kept on " : "Kept since "}
            <ViewerTime iso={roster.keptAt} zone={roster.zone} />.
          </>
        )}
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        {figures.map(([label, cents, n]) => (
          <div key={label} data-figure={`deposit ${label}`}>
            <dt className="text-slate-500">{label}</dt>
            <dd className="font-semibold text-slate-900">
              {formatCents(cents)}
              {n !== null && <span className="ml-1 text-xs font-normal text-slate-500">({n})</span>}
            </dd>
          </div>
        ))}
      </dl>
      {done && (
        <p role="status" className="mt-3 text-sm text-green-800">
          {done}
        </p>
      )}
      {roster.notCheckedIn.length > 0 && (
        <>
          <h3 className="mt-4 font-semibold text-slate-900">Not checked in</h3>
          <ul className="mt-1 divide-y divide-slate-100" aria-label="Deposits not checked in">
            {roster.notCheckedIn.map((a) => (
              <li key={a.pledgeId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">{a.label}</span>
                  {a.name !== a.label && (
                    <span className="ml-2 wrap-anywhere text-sm text-slate-500">{a.name}</span>
                  )}
                </span>
                <span className="flex items-center gap-2">
                  <Badge tone={STATE_BADGE[a.state].tone}>{STATE_BADGE[a.state].label}</Badge>
                  {a.excusable && (
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Excuse ${a.label}`}
                      onClick={() => {
                        setError(null);
                        setAsking(a);
                      }}
                    >
                      Excuse
                    </Button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {asking && (
        <ConfirmDialog
          title={`Refund ${asking.label}'s ${amount} deposit?`}
          error={error}
          busy={busy}
          cancelLabel="Keep it held"
          confirmLabel="Refund deposit"
          busyLabel="Refunding…"
          tone="primary"
          onCancel={() => setAsking(null)}
          onConfirm={() => void excuse()}
        >
          <p>
            {asking.name} is excused as if they had checked in: their {amount} deposit goes back to their
            card. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
