import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import type { MyCommitment } from "@/lib/pledges/mine";
import type { ShownTicket } from "@/lib/tickets/queries";
import { TicketCard, ticketPrintHref } from "@/components/tickets/ticket-card";
import { RecoveryBanner } from "@/components/commit/recovery-banner";
import { cardLabel, STATE_TONE_CLASS } from "@/components/commit/commitment-text";
import { YourTime } from "@/components/time/your-time";
import { ViewerTime } from "@/components/time/viewer-time";
import { formatDate } from "@/lib/format";

/**
 * The backer's commitments on their profile (issue 18), beside SPEC's "Your Active Pacts": every
 * event they committed to, its phase, their own state and their card. Only the backer sees this.
 */
export function MyCommitments({
  items,
  tickets = {},
}: {
  items: MyCommitment[];
  /** issue 36: door tickets by pledge id (valid or void) */
  tickets?: Record<string, ShownTicket>;
}) {
  const live = items.filter((m) => m.state !== "withdrawn");
  const withdrawn = items.filter((m) => m.state === "withdrawn");
  return (
    <section aria-labelledby="my-commitments">
      <h2 id="my-commitments" className="text-xl font-bold text-slate-900">
        My commitments
      </h2>
      {items.length === 0 ? (
        <p className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          You haven&apos;t committed to any event yet.{" "}
          <Link href="/" className="font-semibold text-brand-700 underline">
            Find one to join
          </Link>
        </p>
      ) : (
        <ul className="mt-4 grid gap-4 md:grid-cols-2">
          {[...live, ...withdrawn].map((m) => (
            <li key={m.pledgeId} className="min-w-0">
              <CommitmentCard m={m} ticket={tickets[m.pledgeId]} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CommitmentCard({ m, ticket }: { m: MyCommitment; ticket?: ShownTicket }) {
  return (
    <div className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
        <h3 className="min-w-0 wrap-anywhere font-semibold text-slate-900">
          <Link href={`/campaign/${m.campaignId}`} className="hover:underline">
            {m.title}
          </Link>
        </h3>
        <span className="flex shrink-0 flex-wrap gap-1 self-start sm:justify-end">
          <Badge tone={m.phase.tone}>{m.phase.label}</Badge>
          {m.standingBadge && <Badge tone={m.standingBadge.tone}>{m.standingBadge.label}</Badge>}
        </span>
      </div>
      {m.recovery && (
        <div className="mt-3">
          <RecoveryBanner recovery={m.recovery} payUrl={m.payUrl} />
        </div>
      )}
      {!m.recovery && <p className={`mt-2 text-sm font-medium ${STATE_TONE_CLASS[m.tone]}`}>{m.stateText}</p>}
      {m.seats && (
        <p className="mt-1 text-sm text-slate-800" data-testid="seats-line">
          {m.seats.text}
        </p>
      )}
      {m.refund && (
        <p className="mt-1 text-sm text-slate-700">
          {m.refund.text}
          {m.refund.refundedAt && (
            <>
              {" on "}
              <ViewerTime iso={m.refund.refundedAt} zone={m.date.zone} />
            </>
          )}
        </p>
      )}
      {m.deposit && (
        <p className="mt-1 text-sm text-slate-700" data-testid="deposit-line">
          <span className={m.deposit.state === "kept" ? "font-medium text-amber-800" : undefined}>
            {m.deposit.text}
          </span>
          {m.deposit.keptAt && (
            <span className="block text-slate-500">
              {m.deposit.keptAtLabel} <ViewerTime iso={m.deposit.keptAt} zone={m.date.zone} />
            </span>
          )}
          {m.deposit.guests && <span className="block">{m.deposit.guests}</span>}
        </p>
      )}
      {ticket && (
        <div className="mt-3">
          <TicketCard ticket={ticket} printHref={ticketPrintHref(m.campaignId)} size={144} />
        </div>
      )}
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-slate-600">
        <dt>{m.date.label}</dt>
        <dd className="min-w-0">
          <time dateTime={m.date.at}>{m.date.text}</time>
          <YourTime iso={m.date.at} zone={m.date.zone} />
        </dd>
        {m.place && (
          <>
            <dt>Place</dt>
            <dd className="min-w-0 wrap-anywhere">{m.place}</dd>
          </>
        )}
        <dt>Amount</dt>
        <dd data-testid="amount-line">{m.amountText}</dd>
        <dt>Committed</dt>
        <dd>{formatDate(m.committedAt)}</dd>
        {m.card && (
          <>
            <dt>Card</dt>
            <dd>{cardLabel(m.card)}</dd>
          </>
        )}
        {m.receipt && (
          <>
            <dt>Receipt</dt>
            <dd className="font-mono">{m.receipt}</dd>
          </>
        )}
      </dl>
      {((m.payUrl && !m.recovery) || m.withdraw || m.canChangeCard) && (
        <div className="mt-auto flex flex-wrap gap-2 pt-3">
          {m.payUrl && !m.recovery && (
            <Link href={m.payUrl} className={buttonClass("primary", "sm")}>
              Pay now
            </Link>
          )}
          {(m.withdraw || m.canChangeCard) && (
            <Link href={`/campaign/${m.campaignId}`} className={buttonClass("secondary", "sm")}>
              {m.canChangeCard
                ? "Change card or withdraw"
                : m.seats
                  ? "Drop a guest or withdraw"
                  : "Withdraw"}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}
