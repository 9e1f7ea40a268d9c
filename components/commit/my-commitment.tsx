"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { useServerActions } from "@/components/actions/server-actions";
import { Button, buttonClass } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SaveCardStep } from "@/components/payments/save-card-step";
import { GIVE_UP_TEXTS, WAITLIST_TEXTS, WITHDRAW_TEXTS } from "@/lib/access/pledge-policy";
import { seatsPriceText } from "@/lib/events/money-sentences";
import { formatCents } from "@/lib/format";
import type { MyCommitment } from "@/lib/pledges/mine";
import { cardLabel, STATE_TONE_CLASS } from "@/components/commit/commitment-text";
import { RecoveryBanner } from "@/components/commit/recovery-banner";
import { InviteGuests } from "@/components/commit/invite-guests";

/**
 * The committed backer's own card on the event page (issue 18): "You're in", their state, their
 * card, and what they may do — add to calendar, change card, withdraw. It asks the server for the
 * viewer's own commitment after the page loads, so the page (and the cached copy committed members
 * share) carries nobody's card.
 */
export function MyCommitmentCard({
  campaignId,
  title,
  paymentsMode,
  publishableKey,
  onWithdrawn,
}: {
  campaignId: string;
  title: string;
  paymentsMode: "stripe" | "demo";
  publishableKey: string | null;
  /** the withdrawal went through: the panel keeps this message after the card itself is gone */
  onWithdrawn: (message: string) => void;
}) {
  const { myCommitmentAction, withdrawCommitmentAction, changeCardAction, giveUpPlaceAction } =
    useServerActions();
  const router = useRouter();
  const [mine, setMine] = useState<MyCommitment | null | undefined>(undefined);
  const [dialog, setDialog] = useState<"withdraw" | "card" | "giveUp" | "drop" | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [cardKey, setCardKey] = useState(0);

  const load = useCallback(async () => {
    const res = await myCommitmentAction({ campaignId }).catch(() => null);
    setMine(res?.ok ? res.data : null);
  }, [campaignId, myCommitmentAction]);
  useEffect(() => {
    // Reading the viewer's own commitment is this effect's point, once on mount.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  async function withdraw() {
    const waitingNow = mine?.waitlist !== null && mine?.waitlist !== undefined;
    setBusy(true);
    setError(null);
    const res = await withdrawCommitmentAction({ campaignId }).catch(() => null);
    setBusy(false);
    if (!res?.ok) return setError(res?.error ?? "Could not withdraw. Please try again.");
    setDialog(null);
    onWithdrawn(
      waitingNow
        ? WAITLIST_TEXTS.left
        : res.data.refundCents > 0
          ? `${WITHDRAW_TEXTS.done} ${formatCents(res.data.refundCents)} is being refunded to your card.`
          : WITHDRAW_TEXTS.done,
    );
    router.refresh(); // the count drops, this card goes and Commit comes back
  }

  /** issue 37: one guest seat dropped before the tip; the rest of the group stays committed */
  async function dropSeat() {
    setBusy(true);
    setError(null);
    const res = await withdrawCommitmentAction({ campaignId, dropSeats: 1 }).catch(() => null);
    setBusy(false);
    if (!res?.ok) return setError(res?.error ?? "Could not drop the seat. Please try again.");
    setDialog(null);
    setNotice("One guest seat dropped. The rest of your group stays committed.");
    void load();
    router.refresh(); // the count drops
  }

  async function giveUp() {
    setBusy(true);
    setError(null);
    const res = await giveUpPlaceAction({ campaignId }).catch(() => null);
    setBusy(false);
    if (!res?.ok) return setError(res?.error ?? "Could not give up your place. Please try again.");
    setDialog(null);
    onWithdrawn(
      res.data.refundPending
        ? `${GIVE_UP_TEXTS.done} Your payment is refunded as soon as they have paid.`
        : GIVE_UP_TEXTS.done,
    );
    router.refresh();
  }

  async function changeCard(paymentMethodId: string) {
    setBusy(true);
    setError(null);
    const res = await changeCardAction({ campaignId, paymentMethodId }).catch(() => null);
    setBusy(false);
    if (!res?.ok) {
      setError(res?.error ?? "Failed to save payment method");
      setCardKey((k) => k + 1); // a used setup intent cannot be confirmed again
      return;
    }
    setDialog(null);
    setNotice(`Your card is now ${cardLabel(res.data)}.`);
    void load();
    if (mine?.waitlist) router.refresh(); // a place may have been open for it
  }

  if (mine === undefined)
    return (
      <p className="mt-3 text-center text-sm text-slate-500" role="status">
        Loading your commitment...
      </p>
    );
  if (mine === null) return null;
  const waiting = mine.waitlist !== null;
  // waiting in line, or holding a place not counted yet (issue 34): amber, not the green of "in"
  const amber = waiting || mine.standing === "conditional";

  return (
    <div
      className={`mt-3 rounded-lg px-4 py-3 ring-1 ${amber ? "bg-amber-50 ring-amber-200" : "bg-emerald-50 ring-emerald-200"}`}
      aria-label="Your commitment"
    >
      <p className={`font-semibold ${amber ? "text-amber-900" : "text-emerald-900"}`}>
        {waiting ? "Your place in line" : "Your commitment"}
      </p>
      {mine.waitlist && !mine.waitlist.paused && (
        <p className="text-3xl font-bold text-amber-900" aria-label={`Position ${mine.waitlist.position}`}>
          #{mine.waitlist.position}
        </p>
      )}
      {mine.recovery && (
        <div className="my-2">
          <RecoveryBanner recovery={mine.recovery} payUrl={mine.payUrl} />
        </div>
      )}
      {!mine.recovery && <p className={`text-sm ${STATE_TONE_CLASS[mine.tone]}`}>{mine.stateText}</p>}
      {mine.seats && (
        <p className="mt-1 text-sm font-medium text-slate-800" data-testid="my-seats">
          {mine.seats.text}
        </p>
      )}
      {mine.card && <p className="mt-1 text-sm text-slate-700">Card: {cardLabel(mine.card)}</p>}
      {mine.withdraw?.kind === "afterChange" && (
        <p className="mt-2 text-sm text-amber-900">
          The date or place changed after the event was confirmed. You may withdraw with a full refund until{" "}
          {mine.withdraw.untilText}.
        </p>
      )}
      {notice && (
        <p role="status" className="mt-2 text-sm text-slate-700">
          {notice}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {mine.payUrl && !mine.recovery && (
          <Link href={mine.payUrl} className={buttonClass("primary", "sm")}>
            Pay now
          </Link>
        )}
        {mine.calendarUrl && (
          <a href={mine.calendarUrl} download className={buttonClass("secondary", "sm")}>
            Add to calendar
          </a>
        )}
        {mine.canChangeCard && (
          <Button
            size="sm"
            variant={mine.waitlist?.paused ? "primary" : "secondary"}
            onClick={() => (setError(null), setDialog("card"))}
          >
            {mine.waitlist?.paused ? "Update card" : "Change card"}
          </Button>
        )}
        {mine.withdraw && (
          <Button size="sm" variant="secondary" onClick={() => (setError(null), setDialog("withdraw"))}>
            {waiting ? "Leave the waitlist" : "Withdraw"}
          </Button>
        )}
        {mine.seats?.canDrop && (
          <Button size="sm" variant="secondary" onClick={() => (setError(null), setDialog("drop"))}>
            Drop a guest
          </Button>
        )}
        {mine.seats && mine.seats.seats > 1 && <InviteGuests campaignId={campaignId} />}
        {mine.canGiveUp && (
          <Button size="sm" variant="secondary" onClick={() => (setError(null), setDialog("giveUp"))}>
            Give up my place
          </Button>
        )}
      </div>

      {dialog === "giveUp" && (
        <ConfirmDialog
          title="Give up your place?"
          error={error}
          busy={busy}
          cancelLabel="Keep my place"
          confirmLabel="Give up my place"
          busyLabel="Giving up..."
          onCancel={() => setDialog(null)}
          onConfirm={() => void giveUp()}
        >
          <p>{GIVE_UP_TEXTS.explain}</p>
          <p className="text-sm">You can&apos;t take this back: the place goes to the next person at once.</p>
        </ConfirmDialog>
      )}

      {dialog === "drop" && mine.seats && (
        <ConfirmDialog
          title="Drop one guest?"
          error={error}
          busy={busy}
          cancelLabel="Keep everyone"
          confirmLabel="Drop a guest"
          busyLabel="Dropping..."
          onCancel={() => setDialog(null)}
          onConfirm={() => void dropSeat()}
        >
          <p>
            Your commitment goes from {mine.seats.seats} people to {mine.seats.seats - 1}.{" "}
            {mine.seats.seats === 2
              ? "You stay committed on your own"
              : mine.seats.seats === 3
                ? "You and your other guest stay committed"
                : `You and your other ${mine.seats.seats - 2} guests stay committed`}
            ; the seat goes back to the event.
          </p>
        </ConfirmDialog>
      )}

      {dialog === "withdraw" && mine.withdraw && (
        <ConfirmDialog
          title={waiting ? "Leave the waitlist?" : "Withdraw your commitment?"}
          error={error}
          busy={busy}
          cancelLabel={waiting ? "Stay in line" : "Keep my commitment"}
          confirmLabel={waiting ? "Leave the waitlist" : "Withdraw"}
          busyLabel="Leaving..."
          onCancel={() => setDialog(null)}
          onConfirm={() => void withdraw()}
        >
          <p>
            {waiting
              ? `You will leave the waitlist for "${title}" and lose your place in line. Nothing is charged.`
              : mine.withdraw.kind === "afterChange"
                ? mine.state === "charged"
                  ? `You will no longer be committed to "${title}", and your payment of ${seatsPriceText(mine.amountCents, mine.seats ? Math.max(1, mine.seats.seats - mine.seats.waiting) : 1)} is refunded in full.`
                  : `You will no longer be committed to "${title}", and your card will not be charged for it.`
                : `You will no longer be committed to "${title}". Nothing is charged, and your card will not be used for it. You can commit again while it is open.`}
          </p>
          {mine.seats && (
            <p className="text-sm">
              Your guests&apos; {mine.seats.seats - 1 === 1 ? "seat goes" : "seats go"} with it.
            </p>
          )}
        </ConfirmDialog>
      )}

      {dialog === "card" && (
        <Modal title="Change your card" onClose={() => setDialog(null)} dismissible={!busy} dark>
          <div className="space-y-4">
            <p className="text-sm text-slate-300">
              The new card replaces {mine.card ? cardLabel(mine.card) : "your saved card"} for this event.{" "}
              {waiting
                ? "It is charged only if a place opens for you before the event starts."
                : mine.whenCharged}
            </p>
            {error && (
              <p role="alert" className="rounded-lg bg-red-500/15 px-3 py-2 text-sm text-red-300">
                {error}
              </p>
            )}
            <SaveCardStep
              key={cardKey}
              paymentsMode={paymentsMode}
              publishableKey={publishableKey}
              onSaved={(pm) => void changeCard(pm)}
              busy={busy}
            />
          </div>
        </Modal>
      )}
    </div>
  );
}
