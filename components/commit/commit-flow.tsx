"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useCallback, useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { Field, Input } from "@/components/ui/field";
import { SaveCardStep } from "@/components/payments/save-card-step";
import {
  conditionOffered,
  conditionRefusal,
  crowdfundAmountSchema,
  personalThresholdSchema,
} from "@/lib/pledges/schema";
import { COMMIT_MESSAGES, WAITLIST_TEXTS, waitlistConsent } from "@/lib/access/pledge-policy";
import { formatCents, plural } from "@/lib/format";
import { priceWithDeposit, seatsPriceText } from "@/lib/events/money-sentences";
import type { CommitPanel } from "@/lib/pledges/queries";
import { showCommitResult } from "@/components/commit/result-store";
import { SeatPicker } from "@/components/commit/seat-picker";
import { postCommit } from "@/components/commit/commit-request";
import type { SavedCardView } from "@/lib/pledges/saved-cards";

type Step = "resuming" | "confirm" | "payment";

/**
 * The condition the backer chose (issue 21) survives a bank's redirect (Stripe's 3-D Secure on the
 * saved card) in this tab's session storage, like the commit it belongs to.
 */
const conditionKey = (campaignId: string) => `pactnexus:condition:${campaignId}`;
function rememberCondition(campaignId: string, n: number | null) {
  try {
    if (n === null) sessionStorage.removeItem(conditionKey(campaignId));
    else sessionStorage.setItem(conditionKey(campaignId), String(n));
  } catch {
    // storage unavailable: the condition is sent from memory only
  }
}
/** issue 37: the ticked "Save this card for next time" survives the bank's redirect the same way. */
const saveKey = (campaignId: string) => `pactnexus:save-card:${campaignId}`;
function rememberSave(campaignId: string, save: boolean) {
  try {
    if (save) sessionStorage.setItem(saveKey(campaignId), "1");
    else sessionStorage.removeItem(saveKey(campaignId));
  } catch {}
}
function saveFor(campaignId: string): boolean {
  try {
    return sessionStorage.getItem(saveKey(campaignId)) === "1";
  } catch {
    return false;
  }
}

/** "Visa ·4242" (issue 37: the card on file offered in one tap) */
const savedCardText = (c: { brand: string; last4: string }) =>
  `${c.brand.charAt(0).toUpperCase()}${c.brand.slice(1)} ·${c.last4}`;

function conditionFor(campaignId: string): number | undefined {
  try {
    const v = sessionStorage.getItem(conditionKey(campaignId));
    return v ? Number(v) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The commit modals (SPEC §2): Confirm Your Commitment → (paid) Save Payment Method → result. Loaded
 * by CommitSection only when the viewer starts committing (or comes back from a bank's
 * authentication page), so the event page does not ship the modals, the card form and zod.
 * `resume`: finish a commit after Stripe's redirect; nothing is shown until its result.
 */
export default function CommitFlow({
  panel,
  paymentsMode,
  publishableKey,
  amount,
  setAmount,
  resume,
  onExit,
  onResult,
}: {
  panel: CommitPanel;
  paymentsMode: "stripe" | "demo";
  publishableKey: string | null;
  amount: string;
  setAmount: (amount: string) => void;
  resume: boolean;
  /** the flow is over (closed, or failed while resuming: `error` is shown under the button) */
  onExit: (error?: string) => void;
  /** the commit went through: its result is on show (components/commit/result-store.ts) */
  onResult: () => void;
}) {
  const { confirmPledgePaymentAction, myDefaultCardAction } = useServerActions();
  const router = useRouter();
  const [step, setStep] = useState<Step>(resume ? "resuming" : "confirm");
  const [amountError, setAmountError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const unit = panel.crowdfund ? "dollars" : "participants";
  const current = panel.crowdfund ? Math.floor(panel.raisedCents / 100) : panel.committedCount;
  const deposit = panel.money.deposit;
  const joiningWaitlist = panel.cta === "waitlist";
  const [conditional, setConditional] = useState(false);
  const [minPeople, setMinPeople] = useState("");
  const [minPeopleError, setMinPeopleError] = useState<string | null>(null);
  // issue 37: the people this commitment holds, and whether part of the group may take places
  const [seats, setSeats] = useState(1);
  // issue 36: the show-up deposit is charged with the ticket, in the same payment; issue 37: a group
  // pays one charge of seats × price ("3 people × $20.00 = $60.00", lib/events/money-sentences)
  const priceText = seatsPriceText(panel.ticketPriceCents + panel.depositCents, seats);
  // a group's deposits, in the group's amounts (each seat's refunded at its own check-in)
  const depositLine = deposit && seats > 1 ? (priceWithDeposit(panel, seats) ?? deposit.line) : deposit?.line;
  // the money sentences for this many people (a group's amount), as the server said them
  const money = (seats > 1 && panel.money.bySeats[seats - 2]) || panel.money;
  const [partialOk, setPartialOk] = useState(false);
  // issue 37: the card on file offered in one tap (undefined while it is asked for), and the sheet's box
  const [saved, setSaved] = useState<SavedCardView | null | undefined>(panel.paid ? undefined : null);
  const savedAsked = useRef<Promise<SavedCardView | null> | null>(null);
  const [keepCard, setKeepCard] = useState(false);

  useEffect(() => {
    if (!panel.paid || resume) return;
    savedAsked.current = myDefaultCardAction()
      .then((r) => (r.ok ? r.data : null))
      .catch(() => null);
    void savedAsked.current.then(setSaved);
  }, [panel.paid, resume, myDefaultCardAction]);
  // a group larger than the places left joins the waitlist: the button says so
  const groupWaits = seats > 1 && panel.placesLeft !== null && seats > panel.placesLeft;

  const save = useCallback(
    async (paymentMethodId?: string, resuming = false, saveCard = false) => {
      setSaving(true);
      setError(null);
      const res = await postCommit({
        campaignId: panel.campaignId,
        paymentMethodId,
        saveCard: saveCard || undefined,
        amount: panel.crowdfund ? amount : undefined,
        minPeople: conditionFor(panel.campaignId),
        ...(seats > 1 ? { seats, partialOk } : {}),
      }).catch(() => null);
      setSaving(false);
      if (!res) {
        if (resuming) onExit(COMMIT_MESSAGES.saveFailed);
        else setError(COMMIT_MESSAGES.saveFailed);
        return;
      }
      if (!res.ok) {
        if (resuming) return onExit(res.error);
        if (res.fieldErrors?.amount) setAmountError(res.fieldErrors.amount);
        if (res.fieldErrors?.seats) setStep("confirm");
        if (res.fieldErrors?.minPeople) {
          setMinPeopleError(res.fieldErrors.minPeople);
          setStep("confirm");
        }
        setError(res.error);
        return;
      }
      const done = res.data;
      const own = done.ownPayment;
      if (own?.status === "requires_action" && publishableKey) {
        // SPEC §8: the committer is here, so their bank's authentication is completed right now.
        setSaving(true);
        const authenticated = await authenticate(publishableKey, own.clientSecret)
          .then((ok) => (ok ? confirmPledgePaymentAction({ pledgeId: done.pledgeId }) : null))
          .catch(() => null);
        setSaving(false);
        done.ownPayment =
          authenticated?.ok && authenticated.data.status === "succeeded"
            ? { status: "succeeded", amountCents: own.amountCents }
            : {
                status: "failed",
                amountCents: own.amountCents,
                payUrl: own.payUrl,
                dueText: own.dueText,
                reason: "Your bank's confirmation was not completed.",
              };
      }
      // issue 34: the result shows above the page (root layout) and the page refreshes behind it at
      // once, so both show the same count; this flow's own dialogs close
      showCommitResult({
        campaignId: panel.campaignId,
        result: done,
        priceText,
        whenCharged: money.whenCharged,
      });
      router.refresh();
      onResult();
    },
    [
      router,
      onResult,
      priceText,
      money.whenCharged,
      panel.campaignId,
      panel.crowdfund,
      amount,
      seats,
      partialOk,
      onExit,
      confirmPledgePaymentAction,
      publishableKey,
    ],
  );

  // The result dialog's code arrives while the backer confirms, not after the commit.
  useEffect(() => {
    void import("@/components/commit/commit-result");
  }, []);

  // Back from a bank's authentication page (Stripe redirect): finish the commit with that card.
  useEffect(() => {
    if (!resume) return;
    const secret = new URLSearchParams(window.location.search).get("setup_intent_client_secret");
    window.history.replaceState(null, "", window.location.pathname);
    if (!secret || paymentsMode !== "stripe" || !publishableKey) return onExit();
    import("@/components/payments/stripe-card-form")
      .then((m) => m.paymentMethodFromRedirect(publishableKey, secret))
      .then((pm) => {
        if (pm) void save(pm, true, saveFor(panel.campaignId));
        else onExit("Failed to save payment method");
      })
      .catch(() => onExit("Failed to save payment method"));
    // Runs once on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function openPayment() {
    setStep("payment");
  }

  function onConfirm() {
    // issue 21: "only count me if at least N people are in", checked here and again on the server
    rememberCondition(panel.campaignId, null);
    if (conditional) {
      const parsed = personalThresholdSchema.safeParse(minPeople);
      if (!parsed.success || parsed.data === undefined) {
        setMinPeopleError(
          parsed.success ? "Enter a number of people." : (parsed.error.issues[0]?.message ?? ""),
        );
        return;
      }
      // issue 34: at or below the members now it would hold at once (the server asks the same)
      const refused = conditionRefusal(parsed.data, panel);
      if (refused) {
        setMinPeopleError(refused);
        return;
      }
      setMinPeopleError(null);
      rememberCondition(panel.campaignId, parsed.data);
    }
    if (panel.crowdfund) {
      const parsed = crowdfundAmountSchema.safeParse(amount);
      if (!parsed.success) {
        setAmountError(parsed.error.issues[0]?.message ?? "Please enter an amount");
        return;
      }
    }
    setAmountError(null);
    if (!panel.paid) return void save();
    // issue 37: with a card on file, this tap commits with it (no card sheet); "change" opens the sheet
    void (async () => {
      const card = saved === undefined ? await savedAsked.current : saved;
      if (card) void save(card.paymentMethodId);
      else openPayment();
    })();
  }

  const close = () => onExit();

  return (
    <>
      {step === "confirm" && (
        <Modal
          title={joiningWaitlist ? "Join the Waitlist" : "Confirm Your Commitment"}
          onClose={close}
          dismissible={!saving}
        >
          <div className="space-y-4 text-slate-700">
            {joiningWaitlist ? (
              <>
                <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
                  {WAITLIST_TEXTS.full(panel.capacity ?? 0)} You&apos;ll be #{panel.waitlistCount + 1} on the
                  waitlist.
                </p>
                <p>{waitlistConsent(panel, undefined, seats)}</p>
              </>
            ) : (
              /* issue 34: the event's one money sentence (lib/events/money-sentences): SPEC §8's
                 warning that it only happens at the threshold and the charge only if met, the moment
                 of the charge, the go-ahead when offered, the free-event wording */
              <p
                className={`rounded-lg px-3 py-2 text-sm ring-1 ${panel.lateCommit ? "bg-emerald-50 text-emerald-900 ring-emerald-200" : "bg-amber-50 text-amber-900 ring-amber-200"}`}
              >
                {money.sentence}
              </p>
            )}
            {/* issue 36: the show-up deposit, stated before the card sheet */}
            {deposit && (
              <div
                className="rounded-lg border border-slate-200 px-3 py-2 text-sm"
                data-testid="commit-deposit"
              >
                <p className="font-semibold text-slate-900">{depositLine}</p>
                <p className="mt-1 text-slate-600">{deposit.rules}</p>
              </div>
            )}
            {!panel.lateCommit && !joiningWaitlist && (
              <ul className="list-disc space-y-1 pl-5 text-sm">
                {panel.money.refunds.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            )}
            {!joiningWaitlist && (
              <p className="text-sm">
                <span className="font-semibold text-slate-900">
                  {current} / {panel.goal}
                </span>{" "}
                {unit} committed so far
              </p>
            )}
            {panel.maxSeats > 1 && (
              <SeatPicker
                maxSeats={panel.maxSeats}
                placesLeft={panel.placesLeft}
                seats={seats}
                setSeats={setSeats}
                partialOk={partialOk}
                setPartialOk={setPartialOk}
              />
            )}
            {conditionOffered(panel) && (
              <div className="rounded-lg border border-slate-200 px-3 py-3">
                <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-brand-600"
                    checked={conditional}
                    onChange={(e) => {
                      setConditional(e.target.checked);
                      setMinPeopleError(null);
                    }}
                  />
                  Only count me if enough others come
                </label>
                {conditional && (
                  <div className="mt-3 space-y-2">
                    <Field
                      id="commit-min-people"
                      label="Count me once at least this many people are in (me included)"
                      error={minPeopleError ?? undefined}
                    >
                      <Input
                        id="commit-min-people"
                        inputMode="numeric"
                        value={minPeople}
                        invalid={Boolean(minPeopleError)}
                        onChange={(e) => {
                          setMinPeople(e.target.value);
                          setMinPeopleError(null);
                        }}
                      />
                    </Field>
                    <p className="text-xs text-slate-600">
                      {panel.committedCount > 0 &&
                        `${plural(panel.committedCount, "person is", "people are")} in now, so choose more than ${panel.committedCount}. `}
                      You hold a place now but count — and pay — only once that many are in. If it isn&apos;t
                      reached by the deadline, you&apos;re released and never charged.
                    </p>
                  </div>
                )}
              </div>
            )}
            {panel.crowdfund && (
              <Field id="commit-amount" label="Your pledge (USD)" error={amountError ?? undefined}>
                <Input
                  id="commit-amount"
                  inputMode="decimal"
                  value={amount}
                  invalid={Boolean(amountError)}
                  onChange={(e) => {
                    setAmount(e.target.value);
                    setAmountError(null);
                  }}
                />
              </Field>
            )}
            {panel.paid && seats > 1 && (
              <p className="text-sm text-slate-800" data-testid="commit-group-total">
                Your group pays once: <span className="font-semibold">{priceText}</span>
              </p>
            )}
            {panel.paid && saved && (
              <p className="text-sm text-slate-800" data-testid="commit-saved-card">
                Pay with <span className="font-semibold">{savedCardText(saved)}</span>{" "}
                <button
                  type="button"
                  className="text-brand-700 underline hover:text-brand-800"
                  onClick={openPayment}
                  disabled={saving}
                >
                  (change)
                </button>
              </p>
            )}
            {error && (
              <p role="alert" className="text-sm text-red-600">
                {error}
              </p>
            )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={close} disabled={saving}>
                Cancel
              </Button>
              <Button onClick={onConfirm} disabled={saving}>
                {saving ? "Saving..." : joiningWaitlist || groupWaits ? "Join the waitlist" : "Yes, I'm In!"}
              </Button>
            </div>
          </div>
        </Modal>
      )}

      {step === "payment" && (
        <Modal title="Save Payment Method" onClose={close} dismissible={!saving} dark>
          <div className="space-y-4">
            <div className="rounded-lg bg-slate-800 px-4 py-3">
              <p className="text-sm text-slate-400">
                {panel.crowdfund
                  ? "Your pledge"
                  : deposit
                    ? "Ticket price and show-up deposit"
                    : "Ticket price"}
              </p>
              <p className="text-2xl font-bold text-white">
                {panel.crowdfund ? formatCents(crowdfundAmountSchema.safeParse(amount).data ?? 0) : priceText}
              </p>
              {deposit && <p className="mt-1 text-sm text-slate-300">{depositLine}</p>}
              <p className="mt-1 text-xs text-slate-400">
                {joiningWaitlist
                  ? "Your card is saved now and charged only if a place opens for you before the event starts."
                  : panel.lateCommit
                    ? "Your card is saved now and charged right away: the event is confirmed."
                    : `Your card is saved now. ${money.whenCharged}`}
              </p>
            </div>
            <label className="flex items-center gap-2 text-sm text-slate-200">
              <input
                type="checkbox"
                className="size-4 accent-brand-400"
                checked={keepCard}
                onChange={(e) => {
                  setKeepCard(e.target.checked);
                  rememberSave(panel.campaignId, e.target.checked);
                }}
              />
              Save this card for next time
            </label>
            <SaveCardStep
              paymentsMode={paymentsMode}
              publishableKey={publishableKey}
              onSaved={(pm) => void save(pm, false, keepCard)}
              busy={saving}
            />
            {error && (
              <p role="alert" className="rounded-lg bg-red-500/15 px-3 py-2 text-sm text-red-300">
                {error}
              </p>
            )}
          </div>
        </Modal>
      )}
    </>
  );
}

/** Completes a bank's authentication with Stripe.js; true when it went through. */
async function authenticate(publishableKey: string, clientSecret: string): Promise<boolean> {
  const { loadStripe } = await import("@stripe/stripe-js");
  const stripe = await loadStripe(publishableKey);
  const next = await stripe?.handleNextAction({ clientSecret });
  return Boolean(next && !next.error);
}
