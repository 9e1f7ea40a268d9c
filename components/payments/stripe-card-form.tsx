"use client";

import { useMemo, useState } from "react";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import {
  paymentMethodIdOf,
  RECORDING_LABEL,
  SAVE_CARD_FALLBACK,
  SAVE_CARD_LABEL,
  type CardFormProps,
} from "@/components/payments/types";

/**
 * Stripe Elements in a dark theme. This module is only imported (dynamically) when the payment
 * step opens, so Stripe.js is not loaded on pages where nobody saves a card.
 */
const stripePromises = new Map<string, Promise<Stripe | null>>();
const getStripe = (key: string) => {
  if (!stripePromises.has(key)) stripePromises.set(key, loadStripe(key));
  return stripePromises.get(key)!;
};

function Inner({
  onSaved,
  busy,
  submitLabel = SAVE_CARD_LABEL,
  busyLabel = RECORDING_LABEL,
  onSubmitting,
}: Omit<CardFormProps, "clientSecret">) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    onSubmitting?.();
    if (!stripe || !elements) return;
    setSaving(true);
    setError(null);
    try {
      const { error: stripeError, setupIntent } = await stripe.confirmSetup({
        elements,
        confirmParams: { return_url: window.location.href },
        redirect: "if_required",
      });
      if (stripeError) {
        setError(stripeError.message || SAVE_CARD_FALLBACK);
        return;
      }
      const pm = paymentMethodIdOf(setupIntent?.payment_method);
      if (!pm) {
        setError(SAVE_CARD_FALLBACK);
        return;
      }
      onSaved(pm);
    } catch {
      setError(SAVE_CARD_FALLBACK);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      {/* issue 37: Apple Pay and Google Pay where the device and the Stripe account offer them (Link too,
          where the account enables it); the SetupIntent's automatic payment methods carry them */}
      <PaymentElement options={{ wallets: { applePay: "auto", googlePay: "auto" } }} />
      {error && (
        <p role="alert" className="rounded-lg bg-red-500/15 px-3 py-2 text-sm text-red-300">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={!stripe || saving || busy}
        className="w-full rounded-lg bg-brand-600 px-4 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {saving ? "Saving..." : busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}

export default function StripeCardForm({
  clientSecret,
  publishableKey,
  ...form
}: CardFormProps & { publishableKey: string }) {
  const stripe = useMemo(() => getStripe(publishableKey), [publishableKey]);
  return (
    <Elements
      stripe={stripe}
      options={{
        clientSecret,
        appearance: { theme: "night", variables: { colorPrimary: "#818cf8", borderRadius: "8px" } },
      }}
    >
      <Inner {...form} />
    </Elements>
  );
}

/**
 * After a redirect-based authentication Stripe returns to the page with the setup intent's client
 * secret in the query; this reads the saved card from it so the commit can finish.
 */
export async function paymentMethodFromRedirect(
  publishableKey: string,
  clientSecret: string,
): Promise<string | null> {
  const stripe = await getStripe(publishableKey);
  if (!stripe) return null;
  const { setupIntent } = await stripe.retrieveSetupIntent(clientSecret);
  return setupIntent?.status === "succeeded" ? paymentMethodIdOf(setupIntent.payment_method) : null;
}
