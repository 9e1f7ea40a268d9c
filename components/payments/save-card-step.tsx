"use client";

import dynamic from "next/dynamic";
import { useCallback, useEffect, useState } from "react";
import { DemoCardForm } from "@/components/payments/demo-card-form";
import { Button } from "@/components/ui/button";
import type { CardFormProps } from "@/components/payments/types";

// Stripe.js is fetched only when a card is being saved.
const StripeCardForm = dynamic(() => import("@/components/payments/stripe-card-form"), {
  ssr: false,
  loading: () => <p className="py-6 text-center text-sm text-slate-400">Loading secure card form...</p>,
});

/** What the setup-intent endpoint said when it refused: its JSON message, else its text. */
async function refusal(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const message = (JSON.parse(text) as { error?: { message?: string } })?.error?.message;
    if (message) return `${res.status} ${message}`;
  } catch {}
  return `${res.status} ${text}`.trim();
}

/**
 * Saving a card, the one client step the commit flow and the payment page share: asks the server
 * for a setup intent (for the signed-in user), then shows Stripe Elements or the demo card form
 * and hands the saved payment method to `onSaved`. Remount it (a new `key`) for a fresh intent: a
 * used setup intent cannot be confirmed again.
 */
export function SaveCardStep({
  paymentsMode,
  publishableKey,
  preparingText = "Preparing secure payment...",
  ...form
}: Omit<CardFormProps, "clientSecret"> & {
  paymentsMode: "stripe" | "demo";
  publishableKey: string | null;
  preparingText?: string;
}) {
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [initError, setInitError] = useState<string | null>(null);

  const init = useCallback(async () => {
    setClientSecret(null);
    setInitError(null);
    try {
      // The body is informative only: the server saves the card for the session's user.
      const res = await fetch("/api/create-setup-intent", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!res.ok) throw new Error(await refusal(res));
      const body = (await res.json()) as { clientSecret?: string };
      if (!body.clientSecret) throw new Error("No client secret returned");
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

  if (initError)
    return (
      <div className="space-y-3">
        <p role="alert" className="rounded-lg bg-red-500/15 px-3 py-2 text-sm text-red-300">
          {initError}
        </p>
        <Button variant="secondary" onClick={() => void init()}>
          Try again
        </Button>
      </div>
    );
  if (!clientSecret) return <p className="py-6 text-center text-sm text-slate-400">{preparingText}</p>;
  return paymentsMode === "stripe" && publishableKey ? (
    <StripeCardForm clientSecret={clientSecret} publishableKey={publishableKey} {...form} />
  ) : (
    <DemoCardForm clientSecret={clientSecret} {...form} />
  );
}
