import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ProgressBar } from "@/components/ui/progress-bar";
import { buttonClass } from "@/components/ui/button";
import { ChargeButton } from "@/components/manage/charge-button";
import { GoAheadButton } from "@/components/manage/go-ahead-button";
import { CommitmentsChart } from "@/components/manage/commitments-chart";
import { CoverUpload } from "@/components/manage/cover-upload";
import { MoneyFigures } from "@/components/manage/money-figures";
import { PayoutsSetupNotice } from "@/components/payouts/payouts-setup-notice";
import { formatCents, progressPercent } from "@/lib/format";
import { formatInZone } from "@/lib/campaigns/event-time";
import type { ManageCommitment, ManageView as View } from "@/lib/pledges/manage-queries";

import { isConfirmed } from "@/lib/events/lifecycle";
import {
  GOING_AHEAD_TITLE,
  goalMetSentence,
  wentAhead,
  wentAheadSentence,
  wentAheadText,
} from "@/lib/events/money-sentences";
import { isApproved } from "@/lib/access/rules";

function statusBanner(c: View["campaign"]): { tone: string; title: string; text: string } {
  const banner = statusBannerOf(c);
  // issue 34: going ahead is the organizer's choice, not "threshold reached" (lib/events/money-sentences)
  if (!wentAhead(c) || !isConfirmed(c.status)) return banner;
  const facts = { ...c, pactType: c.crowdfund ? "crowdfund" : "paction" };
  return {
    tone: banner.tone,
    title: GOING_AHEAD_TITLE,
    text:
      c.status === "charged" && c.paid
        ? `${wentAheadText(facts)} ${banner.text}`
        : wentAheadSentence(facts) + (c.status === "charged" ? "" : ` ${banner.text}`),
  };
}

function statusBannerOf(c: View["campaign"]): { tone: string; title: string; text: string } {
  const remaining = Math.max(0, c.goal - c.committedCount);
  const unitLeft = c.crowdfund
    ? `${formatCents(remaining * 100)} more needed`
    : `${remaining} more ${remaining === 1 ? "person" : "people"} needed`;
  switch (c.status) {
    case "funded":
      return {
        tone: "border-brand-200 bg-brand-50 text-brand-900",
        title: "Threshold reached",
        text: "Charging of saved cards is queued and runs automatically.",
      };
    case "charging":
      return {
        tone: "border-brand-200 bg-brand-50 text-brand-900",
        title: "Charging attendees",
        text: "Saved cards are being charged now.",
      };
    case "charged":
      return {
        tone: "border-emerald-200 bg-emerald-50 text-emerald-900",
        title: "Event confirmed",
        text: c.paid
          ? `All attendees charged${c.chargedAt ? ` on ${formatInZone(c.chargedAt, c.timeZone)}` : ""}: ${c.totalCharged} charged, ${
              // "Collected" is what was charged, before refunds, as in the Money panel below and /payouts
              // (issue 34: one meaning per word); what is kept is the panel's Net
              c.refundedCents > 0
                ? `${formatCents(c.totalChargedCents)} collected, ${formatCents(c.refundedCents)} of it refunded.`
                : `${formatCents(c.totalChargedCents)} collected.`
            }`
          : goalMetSentence({ ...c, pactType: c.crowdfund ? "crowdfund" : "paction" }),
      };
    case "expired":
      return {
        tone: "border-slate-200 bg-slate-50 text-slate-800",
        title: "Ended below the goal",
        text: "The deadline passed before the threshold was met. Nobody was charged.",
      };
    case "cancelled":
      return {
        tone: "border-slate-200 bg-slate-50 text-slate-800",
        title: "Cancelled",
        text:
          c.refundedCount > 0
            ? `This event was cancelled. ${c.refundedCount} ${c.refundedCount === 1 ? "charge was" : "charges were"} refunded: ${formatCents(c.refundedCents)} of the ${formatCents(c.totalChargedCents)} collected.`
            : "This event was cancelled. Nobody will be charged.",
      };
    default:
      return {
        tone: "border-amber-200 bg-amber-50 text-amber-900",
        title: "Active: collecting commitments",
        text: `${unitLeft} to reach the goal. Nobody is charged unless it is met.`,
      };
  }
}

function revelationText(c: View["campaign"]) {
  if (!c.attendeesAnonymous) return "Attendee names are shown publicly on the event page.";
  const when =
    c.identityRevelationType === "immediate"
      ? "until the threshold is met"
      : c.identityRevelationType === "onStart"
        ? "until the event starts"
        : "permanently";
  return `Attendees appear to other visitors as "Anonymous Attendee #n" ${when}.`;
}

/** The commitment's badge: the one story of it (lib/events/story.ts), as the CSV tells it too. */
function ChargeState({ p }: { p: ManageCommitment }) {
  const { label, tone, note } = p.status;
  if (!note) return <Badge tone={tone}>{label}</Badge>;
  return (
    <span className="inline-flex flex-col items-start gap-0.5 sm:items-end">
      <Badge tone={tone}>{label}</Badge>
      <span className="text-xs text-slate-500">{note}</span>
    </span>
  );
}

function Stat({
  label,
  value,
  note,
  children,
}: {
  label: string;
  value: string;
  note?: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-5">
      <p className="text-xs font-medium text-slate-500 sm:text-sm">{label}</p>
      <p className="mt-1 truncate text-2xl font-bold text-slate-900 sm:text-3xl">{value}</p>
      {note && <p className="text-xs text-slate-500">{note}</p>}
      {children}
    </div>
  );
}

/** The organizer's manage page body (SPEC §2 "Manage page"). Rendered on the server. */
export function ManageView({ view, now }: { view: View; now: string }) {
  const c = view.campaign;
  const banner = statusBanner(c);
  const percent = progressPercent(c.committedCount, c.goal);
  const priceText = c.crowdfund ? "their pledged amount" : formatCents(c.ticketPriceCents);
  const paymentText = c.paymentType
    ? `${c.paymentType === "venmo" ? "Venmo" : c.paymentType === "paypal" ? "PayPal" : "Other"}: ${c.paymentType === "venmo" && c.paymentMethod ? `@${c.paymentMethod.replace(/^@/, "")}` : (c.paymentMethod ?? "Not specified")}`
    : (c.paymentMethod ?? "Not specified");

  return (
    <div className="space-y-6">
      <div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Link href={`/campaign/${c.id}`} className="text-sm font-medium text-brand-700 hover:underline">
            ← Back to event
          </Link>
          <Link
            href={`/campaign/${c.id}/edit`}
            className="rounded-lg px-3 py-1.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-100 hover:bg-brand-50"
          >
            Edit event
          </Link>
        </div>
        <p className="mt-3 text-sm font-semibold uppercase tracking-wide text-slate-500">Manage Campaign</p>
        <h1 className="mt-1 text-2xl font-bold text-slate-900 sm:text-3xl">{c.title}</h1>
        {!isApproved(c) && (
          <p className="mt-2 text-sm text-amber-800">
            This event is {c.approvalStatus === "rejected" ? "rejected" : "pending approval"} and is not
            visible to the public.
          </p>
        )}
      </div>

      {view.payoutsSetupNeeded && <PayoutsSetupNotice />}

      <div role="status" className={`rounded-xl border px-5 py-4 ${banner.tone}`}>
        <p className="font-bold">{banner.title}</p>
        <p className="mt-1 text-sm">{banner.text}</p>
      </div>

      <CoverUpload campaignId={c.id} title={c.title} coverId={c.coverId} />

      <div className="grid grid-cols-3 gap-2 sm:gap-4">
        <Stat
          label="Total Commitments"
          value={c.crowdfund ? formatCents(c.raisedCents) : String(c.committedCount)}
          note={c.crowdfund ? `${c.pledgeCount} backers` : undefined}
        />
        <Stat
          label="Goal"
          value={c.crowdfund ? formatCents(c.goal * 100) : String(c.goal)}
          note={
            c.crowdfund
              ? undefined
              : c.capacity !== null
                ? `attendees · capacity ${c.capacity} · ${c.waitlistCount} waiting`
                : "attendees"
          }
        />
        <Stat label="Progress" value={`${percent}%`}>
          <div className="mt-2">
            <ProgressBar value={c.committedCount} max={c.goal} label="Progress toward the goal" />
          </div>
        </Stat>
      </div>

      {c.mayGoAhead && (
        <GoAheadButton
          campaignId={c.id}
          members={c.committedCount}
          goal={c.goal}
          priceText={c.ticketPriceCents > 0 ? formatCents(c.ticketPriceCents) : null}
        />
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <h2 className="text-lg font-bold text-slate-900">Payment</h2>
          <dl className="mt-3 space-y-2 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">Ticket price</dt>
              <dd className="font-semibold text-slate-900">
                {c.ticketPriceCents === 0 ? "FREE" : formatCents(c.ticketPriceCents)}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">Payment method</dt>
              <dd className="text-right font-semibold break-all text-slate-900">{paymentText}</dd>
            </div>
          </dl>
          {c.paid ? (
            <div className="mt-4 border-t border-slate-100 pt-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 className="font-semibold text-slate-900">Manual charge</h3>
                <Link href="/payouts" className="text-sm font-semibold text-brand-700 hover:underline">
                  Payouts →
                </Link>
              </div>
              {isConfirmed(c.status) ? (
                // Stays mounted when the count drops to 0 after a charge, so its result message survives the refresh.
                <ChargeButton campaignId={c.id} count={view.chargeableCount} priceText={priceText} />
              ) : (
                <p className="mt-1 text-sm text-slate-600">
                  Charging becomes available once the threshold is met. Nobody is charged before that.
                </p>
              )}
              <PaymentProblems view={view} />
              <MoneyFigures money={view.money} />
            </div>
          ) : (
            <p className="mt-4 border-t border-slate-100 pt-4 text-sm text-slate-600">
              Free event: nobody is charged. It is confirmed as soon as the goal is reached.
            </p>
          )}
        </Card>

        <Card className="border-brand-100 bg-brand-50/40">
          <h2 className="text-lg font-bold text-slate-900">Privacy</h2>
          <p className="mt-2 text-sm text-slate-700">
            As the organizer you always see who committed. {revelationText(c)}
          </p>
          <p className="mt-2 text-sm text-slate-700">
            Please use attendee contact details only to organize this event, and do not share them.
          </p>
        </Card>
      </div>

      <CommitmentsChart
        timeline={view.timeline}
        goal={c.goal}
        start={c.createdAt}
        end={now}
        unit={c.crowdfund ? "dollars" : "attendees"}
        timeZone={c.timeZone}
      />

      <section
        aria-labelledby="manage-commitments"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="manage-commitments" className="text-lg font-bold text-slate-900">
            Commitments <span className="font-normal text-slate-500">({view.totalCommitments})</span>
            {view.withdrawnCount > 0 && (
              <span className="ml-2 text-sm font-normal text-slate-500">{view.withdrawnCount} withdrawn</span>
            )}
            {c.waitlistCount > 0 && (
              <span className="ml-2 text-sm font-normal text-amber-700">
                {c.waitlistCount} on the waitlist
              </span>
            )}
          </h2>
          {view.commitments.length > 0 && (
            <a href={`/campaign/${c.id}/commitments.csv`} className={buttonClass("secondary", "sm")} download>
              Export CSV
            </a>
          )}
        </div>
        {view.commitments.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-slate-600">
            No pledges yet. Share your campaign to get started!
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100" aria-label="Commitments, newest first">
            <li className="hidden grid-cols-[2fr_1fr_1fr_1fr] gap-3 px-2 pb-2 text-xs font-semibold uppercase tracking-wide text-slate-500 sm:grid">
              <span>Contributor</span>
              <span>Date</span>
              <span className="text-right">Amount</span>
              <span className="text-right">{c.paid ? "Charge" : "Status"}</span>
            </li>
            {view.commitments.map((p) => (
              <li
                key={p.id}
                className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 px-2 py-3 sm:grid-cols-[2fr_1fr_1fr_1fr] sm:items-center"
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium text-slate-900">{p.contributor}</span>
                  {p.seat && (
                    <span className="block text-xs text-slate-600" data-testid="manage-seat">
                      {p.seat}
                    </span>
                  )}
                  {p.minPeople !== null && (
                    <span className="block text-xs text-amber-800">
                      Only if at least {p.minPeople} are in
                    </span>
                  )}
                  {p.email !== p.contributor && (
                    <span className="block truncate text-xs text-slate-500">{p.email}</span>
                  )}
                </span>
                <span className="order-3 text-sm text-slate-600 sm:order-none">
                  {formatInZone(p.createdAt, c.timeZone)}
                </span>
                <span className="order-4 text-right text-sm font-semibold text-slate-900 sm:order-none">
                  {p.amountCents > 0 ? formatCents(p.amountCents) : "Free"}
                  {p.cardLast4 && (
                    <span className="block text-xs font-normal text-slate-500">{`${p.cardBrand ?? "card"} •••• ${p.cardLast4}`}</span>
                  )}
                </span>
                <span className="order-2 text-right sm:order-none">
                  <ChargeState p={p} />
                </span>
              </li>
            ))}
          </ul>
        )}
        {view.totalCommitments + view.withdrawnCount + view.droppedCount + c.waitlistCount >
          view.commitments.length && (
          <p className="mt-3 text-sm text-slate-500">
            Showing the newest {view.commitments.length} of{" "}
            {view.totalCommitments + view.withdrawnCount + view.droppedCount + c.waitlistCount}. Export CSV
            for the full list.
          </p>
        )}
      </section>
    </div>
  );
}

/**
 * Failed payments by phase (DESIGN §1 "failed payments"): waiting for a new card, an automatic
 * retry to come, dropped when the window closed. Nothing when no payment failed.
 */
function PaymentProblems({ view }: { view: View }) {
  const rows = [
    {
      n: view.failedCount,
      label: "failed",
      note: "the backer was emailed a link to pay with another card, and is reminded every 48 hours",
    },
    { n: view.retryingCount, label: "retrying", note: "declined for now; tried once more a day after" },
    { n: view.droppedCount, label: "dropped", note: "not paid in time; released and never charged" },
  ].filter((r) => r.n > 0);
  if (rows.length === 0) return null;
  return (
    <div className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200">
      <p className="font-medium">Payments that need attention</p>
      <ul className="mt-1 space-y-0.5">
        {rows.map((r) => (
          <li key={r.label}>
            <strong>
              {r.n} {r.label}
            </strong>{" "}
            — {r.note}
          </li>
        ))}
      </ul>
    </div>
  );
}
