"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { COMMIT_MESSAGES, type CommitBlock } from "@/lib/pledges/policy";
import type { CommitPanel } from "@/lib/pledges/queries";

// The modals, the demo card form and the zod schema are fetched when the viewer starts committing
// (hovering or focusing the button starts the download); Stripe.js only when the payment step opens.
const loadFlow = () => import("@/components/commit/commit-flow");
const CommitFlow = dynamic(loadFlow, {
  ssr: false,
  loading: () => (
    <p role="status" className="mt-3 text-center text-sm text-slate-600">
      Loading...
    </p>
  ),
});

const BLOCK_TEXT: Record<Exclude<CommitBlock, "signedOut">, (p: CommitPanel) => string> = {
  alreadyCommitted: () => COMMIT_MESSAGES.alreadyCommitted,
  notApproved: () => "Commitments open once this event is approved.",
  ended: () => "Campaign ended",
  closed: (p) =>
    p.status === "charged"
      ? "This event is confirmed and all attendees have been charged."
      : p.status === "funded" || p.status === "charging"
        ? "The threshold has been reached! Attendees are being charged."
        : p.status === "expired"
          ? "This event ended without reaching its goal. Nobody was charged."
          : "This event was cancelled.",
};

/**
 * The Commit button (SPEC §2); the modals it opens are in CommitFlow. Fed only with CommitPanel,
 * which carries no identities. The server action re-checks everything under a row lock; this
 * component only mirrors its answers.
 */
export function CommitSection({
  panel,
  paymentsMode,
  publishableKey,
}: {
  panel: CommitPanel;
  paymentsMode: "stripe" | "demo";
  publishableKey: string | null;
}) {
  const [flow, setFlow] = useState<"closed" | "open" | "resume">("closed");
  const [signInPrompt, setSignInPrompt] = useState(false);
  const [amount, setAmount] = useState(
    panel.crowdfund ? String(Math.max(1, panel.ticketPriceCents / 100)) : "",
  );
  const [error, setError] = useState<string | null>(null);

  // Back from a bank's authentication page (Stripe redirect): CommitFlow finishes the commit.
  useEffect(() => {
    if (paymentsMode !== "stripe" || !publishableKey) return;
    // Runs once on arrival; the state update starts the flow that reads the redirect's parameters.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (new URLSearchParams(window.location.search).has("setup_intent_client_secret")) setFlow("resume");
  }, [paymentsMode, publishableKey]);

  const onExit = useCallback((message?: string) => {
    setFlow("closed");
    setError(message ?? null);
  }, []);

  function onCommitClick() {
    setError(null);
    if (!panel.signedIn) {
      setSignInPrompt(true);
      return;
    }
    setFlow("open");
  }

  const blocked = panel.block && panel.block !== "signedOut" ? panel.block : null;
  const prefetch = panel.signedIn && !blocked ? () => void loadFlow() : undefined;

  return (
    <section aria-label="Commit" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <Button
        size="lg"
        className="w-full"
        disabled={Boolean(blocked)}
        onClick={onCommitClick}
        onPointerEnter={prefetch}
        onFocus={prefetch}
      >
        {panel.alreadyCommitted ? "You're Committed" : "Commit"}
      </Button>
      {blocked && <p className="mt-3 text-center text-sm text-slate-600">{BLOCK_TEXT[blocked](panel)}</p>}
      {signInPrompt && (
        <div
          role="alert"
          className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          {COMMIT_MESSAGES.signedOut}.{" "}
          <Link href="/profile" className="font-semibold underline">
            Sign in
          </Link>
        </div>
      )}
      {flow === "closed" && error && (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {error}
        </p>
      )}
      {flow !== "closed" && (
        <CommitFlow
          panel={panel}
          paymentsMode={paymentsMode}
          publishableKey={publishableKey}
          amount={amount}
          setAmount={setAmount}
          resume={flow === "resume"}
          onExit={onExit}
        />
      )}
    </section>
  );
}
