"use client";

import { useId, useState } from "react";
import { checkCard } from "@/lib/payments/schema";
import {
  paymentMethodIdOf,
  RECORDING_LABEL,
  SAVE_CARD_FALLBACK,
  SAVE_CARD_LABEL,
  type CardFormProps,
} from "@/components/payments/types";

const darkInput =
  "block w-full rounded-lg border border-slate-600 bg-slate-800 px-3 py-2.5 text-slate-100 placeholder:text-slate-500 focus:border-brand-400 focus:outline-none focus:ring-2 focus:ring-brand-400/40 aria-[invalid=true]:border-red-400";

/** "4242424242424242" -> "4242 4242 4242 4242" as the backer types. */
const groupDigits = (v: string) =>
  v
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

/** "1230" -> "12 / 30". */
function formatExpiry(v: string) {
  const d = v.replace(/\D/g, "").slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
}

/**
 * The demo payments card form (DESIGN §1): same fields and messages as Stripe's card element, but
 * the card goes to our own demo endpoint, which keeps only brand, last 4, expiry and a token.
 */
export function DemoCardForm({
  clientSecret,
  onSaved,
  busy,
  submitLabel = SAVE_CARD_LABEL,
  busyLabel = RECORDING_LABEL,
  onSubmitting,
}: CardFormProps) {
  const id = useId();
  const [cardNumber, setCardNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    onSubmitting?.();
    const [expMonth = "", expYear = ""] = expiry.split("/").map((s) => s.trim());
    const local = checkCard({ cardNumber, expMonth, expYear, cvc });
    if (!local.ok) {
      setError({ message: local.message, field: local.field });
      return;
    }
    setError(null);
    setSaving(true);
    try {
      const res = await fetch("/api/demo-payments/confirm-setup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientSecret, cardNumber, expMonth, expYear, cvc }),
      });
      const body = (await res.json().catch(() => null)) as {
        setupIntent?: { payment_method?: unknown };
        error?: { message?: string };
      } | null;
      const pm = paymentMethodIdOf(body?.setupIntent?.payment_method);
      if (res.ok && pm) {
        onSaved(pm);
        return;
      }
      setError({ message: body?.error?.message || SAVE_CARD_FALLBACK });
    } catch {
      setError({ message: SAVE_CARD_FALLBACK });
    } finally {
      setSaving(false);
    }
  }

  const invalid = (field: string) => (error?.field === field ? true : undefined);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="rounded-lg border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-200">
        <strong className="font-semibold">Demo payments</strong> — no real card is charged, and only test
        numbers are taken: never enter a real card. Use 4242 4242 4242 4242 with any future date and any CVC.
        Apple Pay and Google Pay are not offered in demo mode; a saved card is kept the same way.
      </p>
      <div className="space-y-1">
        <label htmlFor={`${id}-number`} className="block text-sm font-medium text-slate-300">
          Card number
        </label>
        <input
          id={`${id}-number`}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          className={darkInput}
          value={cardNumber}
          aria-invalid={invalid("cardNumber")}
          onChange={(e) => setCardNumber(groupDigits(e.target.value))}
        />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-1">
          <label htmlFor={`${id}-expiry`} className="block text-sm font-medium text-slate-300">
            Expiration date
          </label>
          <input
            id={`${id}-expiry`}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            className={darkInput}
            value={expiry}
            aria-invalid={invalid("expiry")}
            onChange={(e) => setExpiry(formatExpiry(e.target.value))}
          />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-cvc`} className="block text-sm font-medium text-slate-300">
            Security code
          </label>
          <input
            id={`${id}-cvc`}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CVC"
            className={darkInput}
            value={cvc}
            aria-invalid={invalid("cvc")}
            onChange={(e) => setCvc(e.target.value.replace(/\D/g, "").slice(0, 4))}
          />
        </div>
      </div>
      {error && (
        <p role="alert" className="rounded-lg bg-red-500/15 px-3 py-2 text-sm text-red-300">
          {error.message}
        </p>
      )}
      <button
        type="submit"
        disabled={saving || busy}
        className="w-full rounded-lg bg-brand-600 px-4 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {saving ? "Saving..." : busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
