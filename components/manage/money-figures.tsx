import { formatCents } from "@/lib/format";
import type { Ledger } from "@/lib/payouts/ledger";

const charges = (n: number) => `${n} ${n === 1 ? "charge" : "charges"}`;

/**
 * The event's money on the manage page (issue 34): the payout ledger's figures, with the labels
 * /payouts and its CSV use, so the organizer reads one set of numbers everywhere.
 */
export function MoneyFigures({ money }: { money: Ledger }) {
  if (money.chargeCount === 0) return null;
  const rows: [string, number, string | null][] = [
    ["Collected", money.collectedCents, charges(money.chargeCount)],
    ["Refunded", money.refundedCents, money.refundCount > 0 ? charges(money.refundCount) : null],
    ["Refunds pending", money.owedBackCents, null],
    ["Fees", money.platformFeeCents + money.processingFeeCents, null],
    ["Net", money.netCents, null],
  ];
  return (
    <section aria-label="Money" className="mt-4 border-t border-slate-100 pt-4">
      {/* the section's "Payouts →" link is beside Manual charge, above */}
      <h3 className="font-semibold text-slate-900">Money</h3>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
        {rows.map(([label, cents, note]) => (
          <div key={label} data-figure={label}>
            <dt className="text-slate-500">{label}</dt>
            <dd className="font-semibold text-slate-900">
              {formatCents(cents)}
              {note && <span className="ml-1 text-xs font-normal text-slate-500">({note})</span>}
            </dd>
          </div>
        ))}
      </dl>
      {money.feesUnknown > 0 && (
        <p className="mt-1 text-xs text-slate-500">Processing fees of some charges are still to come.</p>
      )}
    </section>
  );
}
