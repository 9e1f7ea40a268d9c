"use client";

import dynamic from "next/dynamic";
import { useCallback, useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { DemoCardForm } from "@/components/payments/demo-card-form";
import { Button } from "@/components/ui/button";
import { confirmPledgePaymentAction, payPledgeAction } from "@/app/pledges/[pledgeId]/pay/actions";

// Stripe.js is fetched only on this page's payment step.
const StripeCardForm = dynamic(() => import("@/components/payments/stripe-card-form"), {
  ssr: false,
  loading: () => <p className="py-6 text-center text-sm text-slate-400">Loading secure card form...</p>,
});

/**
 * Update the card and pay on-session: save a new card (Stripe Elements or the demo form), then the
 * server charges it at once. With Stripe, a bank that asks for authentication gets it here, with
 * the backer present (stripe.handleNextAction), and the server records the outcome.
 */
export function PayForm({
  pledgeId,
  amountText,
  paymentsMode,
  publishableKey,
}: {
  pledgeId: string;
  amountText: string;
  paymentsMode: "stripe" | "demo";
  publishableKey: string | null;
}) {
  const router = useRouter();
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [initError, setInitError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [paid, setPaid] = useState(false);

  const init = useCallback(async () => {
    setClientSecret(null);
    setInitError(null);
    try {
      const res = await fetch("/api/create-setup-intent", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      const body = (await res.json().catch(() => null)) as {
        clientSecret?: string;
        error?: { message?: string };
      } | null;
      if (!res.ok || !body?.clientSecret) throw new Error(body?.error?.message || `HTTP ${res.status}`);
      setClientSecret(body.clientSecret);
    } catch (e) {
      setInitError(`Failed to initialize payment. Please try again. Error: ${(e as Error).message}`);
    }
  }, []);

  useEffect(() => {
    // Fetching the setup intent is the point of this effect (external system), once on mount.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void init();
  }, [init]);

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
      await init(); // a saved setup intent cannot be reused: start a fresh one for the next card
    } finally {
      setPaying(false);
    }
  }

  if (paid) {
    return (
      <p
        role="status"
        className="rounded-lg bg-emerald-50 px-4 py-3 text-emerald-800 ring-1 ring-emerald-200"
      >
        Payment complete: {amountText} charged. Thank you, see you at the event!
      </p>
    );
  }

  return (
    <div className="rounded-xl bg-slate-900 p-5 text-slate-100 shadow-lg sm:p-6">
      <div className="mb-4 flex items-baseline justify-between gap-3">
        <h2 className="text-lg font-semibold">New payment method</h2>
        <span className="text-sm text-slate-300">
          Amount due <strong className="text-white">{amountText}</strong>
        </span>
      </div>
      {error && (
        <p role="alert" className="mb-4 rounded-lg bg-red-500/15 px-3 py-2 text-sm text-red-300">
          {error}
        </p>
      )}
      {initError ? (
        <div className="space-y-3">
          <p role="alert" className="rounded-lg bg-red-500/15 px-3 py-2 text-sm text-red-300">
            {initError}
          </p>
          <Button variant="secondary" onClick={() => void init()}>
            Try again
          </Button>
        </div>
      ) : !clientSecret ? (
        <p className="py-6 text-center text-sm text-slate-400">Preparing secure card form...</p>
      ) : paymentsMode === "stripe" && publishableKey ? (
        <StripeCardForm
          key={clientSecret}
          clientSecret={clientSecret}
          publishableKey={publishableKey}
          onSaved={(pm) => void pay(pm)}
          busy={paying}
        />
      ) : (
        <DemoCardForm
          key={clientSecret}
          clientSecret={clientSecret}
          onSaved={(pm) => void pay(pm)}
          busy={paying}
        />
      )}
      <p className="mt-4 text-xs text-slate-400">
        Your card is charged {amountText} as soon as it is saved. It is used for this commitment only.
      </p>
    </div>
  );
}
