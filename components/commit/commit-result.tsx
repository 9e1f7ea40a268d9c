"use client";

import { useCallback, useState } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { conditionText } from "@/lib/events/story";
import { formatCents } from "@/lib/format";
import type { CommitResult } from "@/lib/pledges/decide";
import { showCommitResult, type ShownResult } from "@/components/commit/result-store";

const peopleNeeded = (n: number) => `${n} more ${n === 1 ? "person" : "people"} needed`;

/** The commit result (SPEC §8), shown by CommitResultHost above the refreshed page. */
export default function CommitResultDialog({ shown }: { shown: ShownResult }) {
  const close = useCallback(() => showCommitResult(null), []);
  return (
    <Modal title={resultTitle(shown.result)} onClose={close}>
      {/* issue 37: a group's seats, said before what happened to them */}
      {shown.result.seats > 1 && (
        <p className="mb-3 text-sm font-medium text-slate-900" data-testid="result-seats">
          {groupText(shown.result)}
        </p>
      )}
      <ResultBody result={shown.result} priceText={shown.priceText} whenCharged={shown.whenCharged} />
      <div className="mt-6 flex justify-end">
        <Button onClick={close}>Close</Button>
      </div>
    </Modal>
  );
}

/**
 * SPEC §8: threshold met → "Event Confirmed!"; the committer's own charge failed, or charging could
 * not be started → "Commitment Recorded!".
 */
const resultTitle = (r: CommitResult) =>
  r.waitlisted
    ? "You're on the Waitlist"
    : !r.member && r.minPeople !== null
      ? "You're In, Conditionally"
      : !r.thresholdMet
        ? "You're Committed!"
        : r.ownPayment?.status === "failed" ||
            r.ownPayment?.status === "requires_action" ||
            (!r.chargingQueued && r.ownPayment?.status !== "succeeded")
          ? "Commitment Recorded!"
          : "Event Confirmed!";

function ResultBody({
  result,
  priceText,
  whenCharged,
}: {
  result: CommitResult;
  priceText: string;
  whenCharged: string;
}) {
  const [copied, setCopied] = useState(false);
  const own = result.ownPayment;
  if (!result.member && result.minPeople !== null && !result.waitlisted) {
    return (
      <div className="space-y-3 text-slate-700">
        <p className="text-lg font-semibold text-slate-900">
          {conditionText(result.minPeople, result.committedCount)}
        </p>
        <p>
          You hold a place meanwhile;{" "}
          {result.free ? "" : "your card is charged only once you count and the event goes ahead. "}If your
          number isn&apos;t reached by the deadline, you&apos;re released and never charged. We&apos;ll email
          you once the event goes ahead with you counted.
        </p>
      </div>
    );
  }
  if (result.waitlisted) {
    return (
      <div className="space-y-3 text-slate-700">
        <p className="text-lg font-semibold text-slate-900">You&apos;re #{result.position} in line</p>
        <p>
          {result.free
            ? "If a place opens before the event starts, you're in automatically and we'll email you."
            : `If a place opens before the event starts, your card is charged ${priceText} automatically and we'll email you. If none opens, nothing is charged.`}
        </p>
        <p className="text-sm">You can leave the waitlist at any time from the event page or your profile.</p>
      </div>
    );
  }
  if (own && (own.status === "failed" || own.status === "requires_action")) {
    return (
      <div className="space-y-3 text-slate-700">
        <p>Your payment method has been saved successfully.</p>
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200">
          {result.late ? "You're in" : `The threshold of ${result.goal} has been reached`}, but your{" "}
          {formatCents(own.amountCents)} payment didn&apos;t go through
          {own.status === "failed" ? `. ${own.reason}` : ". Your bank asked to confirm it."} Pay with another
          card{own.status === "failed" && own.dueText ? ` by ${own.dueText}` : ""} to keep your place.
          We&apos;ll email you the link too.
        </p>
        <a href={own.payUrl} className={buttonClass("primary", "sm")}>
          Pay {formatCents(own.amountCents)} now
        </a>
      </div>
    );
  }
  if (result.thresholdMet && !result.chargingQueued && own?.status !== "succeeded") {
    return <p className="text-slate-700">Your payment method has been saved successfully.</p>;
  }
  if (result.thresholdMet) {
    return (
      <div className="space-y-3 text-slate-700">
        <span
          aria-hidden
          className="flex h-12 w-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-600"
        >
          <svg
            viewBox="0 0 24 24"
            className="h-7 w-7"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M5 12.5l4.5 4.5L19 7.5" />
          </svg>
        </span>
        <p>
          {result.late
            ? result.free
              ? "This event is already confirmed, and you're in!"
              : `This event is already confirmed, and you're in! ${ownText(own, result.unit === "dollars" ? "your pledge" : priceText)}`
            : result.free
              ? `The threshold of ${result.goal} has been reached! This free event is confirmed.`
              : `The threshold of ${result.goal} has been reached! ${ownText(own, result.unit === "dollars" ? "your pledge" : priceText)} Everyone else is being charged ${result.unit === "dollars" ? "their pledge" : `${priceText} each`} automatically.`}
        </p>
        <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800">
          Check your email for confirmation details.
        </p>
      </div>
    );
  }
  const share = async () => {
    const url = window.location.href;
    try {
      if (navigator.share) await navigator.share({ url });
      else {
        await navigator.clipboard.writeText(url);
        setCopied(true);
      }
    } catch {
      // The backer closed the share sheet: nothing to do.
    }
  };
  return (
    <div className="space-y-3 text-slate-700">
      <p>Your commitment has been recorded. {result.free ? "" : whenCharged}</p>
      <p className="text-lg font-semibold text-slate-900">
        {result.unit === "dollars"
          ? `${formatCents(result.remaining * 100)} more needed`
          : peopleNeeded(result.remaining)}
      </p>
      <div className="rounded-lg bg-slate-50 px-3 py-3 text-sm">
        <p>Share this event with friends to help reach the goal!</p>
        <button type="button" onClick={share} className={buttonClass("secondary", "sm", "mt-2")}>
          {copied ? "Link copied" : "Share event link"}
        </button>
      </div>
    </div>
  );
}

/** "For you and 2 guests: …" — who the commitment is for, and what that means for them now. */
function groupText(r: CommitResult) {
  const who = `For you and ${r.seats - 1 === 1 ? "1 guest" : `${r.seats - 1} guests`}`;
  if (r.waitlisted) return `${who}: your group of ${r.seats} waits for places, in line.`;
  if (r.seatsWaiting > 0)
    return `${who}: you're in; ${r.seatsWaiting === 1 ? "1 seat waits" : `${r.seatsWaiting} seats wait`} for a place as they open, in line.`;
  if (r.thresholdMet && r.member) return `${who}: ${r.seats} people are in, each with a ticket of their own.`;
  return `${who}: ${r.seats} people, each with a ticket of their own once the event is confirmed.`;
}

/** The committer's own charge in words: made, or still going (the email follows). */
const ownText = (own: CommitResult["ownPayment"], what: string) =>
  own?.status === "succeeded"
    ? `Your card was charged ${formatCents(own.amountCents)}.`
    : `Your card is being charged ${what} now — we'll email you when it goes through.`;
