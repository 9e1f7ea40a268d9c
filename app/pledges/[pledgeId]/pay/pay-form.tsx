"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { SaveCardStep } from "@/components/payments/save-card-step";
import { Button } from "@/components/ui/button";
import { confirmPledgePaymentAction, payPledgeAction } from "@/app/pledges/[pledgeId]/pay/actions";

/**
 * Update the card and pay on-session: save a new card (Stripe Elements or the demo form), then the
 * server charges it at once. With Stripe, a bank that asks for authentication gets it here, with
 * the backer present (stripe.handleNextAction), and the server records the outcome. With a card on
 * file (issue 37, `savedCard`: the viewer's own, chosen by lib/pledges/saved-cards recoveryCard) the
 * form offers it in one tap, and a new card on "Use a new card".
 */
export function PayForm({
  pledgeId,
  amountText,
  savedCard,
  paymentsMode,
  publishableKey,
}: {
  pledgeId: string;
  amountText: string;
  /** "Visa ·4242" and its id, or null */
  savedCard: { paymentMethodId: string; text: string } | null;
  paymentsMode: "stripe" | "demo";
  publishableKey: string | null;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [paid, setPaid] = useState(false);
  // A used setup intent cannot be confirmed again: a new attempt remounts the card step for a fresh one.
  const [attempt, setAttempt] = useState(0);
  // the card sheet (and its SetupIntent) only when asked for, while a saved card is offered
  const [newCard, setNewCard] = useState(savedCard === null);

  async function pay(paymentMethodId: string) {
    setPaying(true);
    setError(null);
    try {
      let res = await payPledgeAction({ pledgeId, paymentMethodId });
      if (res.ok && res.data.status === "requires_action" && publishableKey) {
        const { loadStripe } = await import("@stripe/stripe-js");
        const stripe = await loadStripe(publishableKey);
        const next = await stripe?.handleNextAction({ clientSecret: res.data.clientSecret });
        if (next?.error) {
          res = {
            ok: true,
            data: { status: "failed", message: next.error.message ?? "Authentication failed." },
          };
        } else {
          res = await confirmPledgePaymentAction({ pledgeId });
        }
      }
      if (!res.ok) setError(res.error);
      else if (res.data.status === "succeeded") {
        setPaid(true);
        router.refresh();
        return;
      } else
        setError(
          res.data.status === "failed"
            ? res.data.message
            : "Authentication was not completed. Please try again.",
        );
      setAttempt((n) => n + 1);
    } finally {
      setPaying(false);
    }
  }

  // The page refreshes into its receipt; until it arrives, say so.
  if (paid) {
    return (
      <p
        role="status"
        className="rounded-lg bg-emerald-50 px-4 py-3 text-emerald-800 ring-1 ring-emerald-200"
      >
        Payment complete: {amountText} charged. Your receipt is loading...
      </p>
    );
  }

  return (
    <div className="rounded-xl bg-slate-900 p-5 text-slate-100 shadow-lg sm:p-6">
      <div className="mb-4 flex items-baseline justify-between gap-3">
        <h2 className="text-lg font-semibold">{newCard ? "New payment method" : "Pay now"}</h2>
        <span className="text-sm text-slate-300">
          Amount due <strong className="text-white">{amountText}</strong>
        </span>
      </div>
      {error && (
        <p role="alert" className="mb-4 rounded-lg bg-red-500/15 px-3 py-2 text-sm text-red-300">
          {error}
        </p>
      )}
      {savedCard && !newCard && (
        <div className="space-y-3">
          <Button
            size="lg"
            className="w-full"
            onClick={() => void pay(savedCard.paymentMethodId)}
            disabled={paying}
            data-testid="pay-saved-card"
          >
            {paying ? "Paying..." : `Pay with ${savedCard.text}`}
          </Button>
          <button
            type="button"
            className="w-full text-center text-sm text-slate-300 underline hover:text-white"
            onClick={() => setNewCard(true)}
            disabled={paying}
          >
            Use a new card
          </button>
        </div>
      )}
      {newCard && (
        <SaveCardStep
          key={attempt}
          paymentsMode={paymentsMode}
          publishableKey={publishableKey}
          onSaved={(pm) => void pay(pm)}
          busy={paying}
          submitLabel={`Pay ${amountText}`}
          busyLabel="Paying..."
          onSubmitting={() => setError(null)}
          preparingText="Preparing secure card form..."
        />
      )}
      <p className="mt-4 text-xs text-slate-400">
        {newCard
          ? `Your card is charged ${amountText} when you press Pay. It is used for this commitment only.`
          : `Your saved card is charged ${amountText} when you press Pay.`}
      </p>
    </div>
  );
}
