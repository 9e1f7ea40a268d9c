"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { COMMIT_MESSAGES, WAITLIST_TEXTS } from "@/lib/access/pledge-policy";
import type { CommitPanel } from "@/lib/pledges/queries";
import { CALL_TO_ACTION_LABELS, isJoinableCta, type CallToAction } from "@/lib/events/lifecycle";
import { formatCents } from "@/lib/format";
import { useShownResult } from "@/components/commit/result-store";

import { commitReturnPath, signInUrl } from "@/lib/auth/return-path";

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

// The committed backer's own card (issue 18) reads their commitment after load; its dialogs and the
// card form are fetched only for committed viewers, so the event page's first load stays small.
const MyCommitmentCard = dynamic(
  () => import("@/components/commit/my-commitment").then((m) => m.MyCommitmentCard),
  {
    ssr: false,
    loading: () => (
      <p role="status" className="mt-3 text-center text-sm text-slate-500">
        Loading your commitment...
      </p>
    ),
  },
);

/** The last withdrawal's message, for the panel of the refreshed page (see CommitSection). */
let lastWithdrawal: { campaignId: string; message: string; at: number } | null = null;

/** What the panel says under a button that offers nothing to do (issue 16: it follows the phase). */
const CTA_TEXT: Record<Exclude<CallToAction, "commit">, (p: CommitPanel) => string> = {
  committed: () => COMMIT_MESSAGES.alreadyCommitted,
  waitlist: (p) => `${WAITLIST_TEXTS.full(p.capacity ?? 0)} ${WAITLIST_TEXTS.joinAt(p.waitlistCount + 1)}`,
  waiting: () => "You're on the waitlist.",
  closed: () => "Commitments open once this event is approved.",
  ended: (p) =>
    p.status === "expired"
      ? "This event ended without reaching its goal. Nobody was charged."
      : "Campaign ended",
  confirmed: (p) =>
    p.status === "charged"
      ? p.paid
        ? "This event is confirmed and all attendees have been charged."
        : "This event is confirmed. It is happening."
      : p.paid
        ? "The threshold has been reached! Attendees are being charged."
        : "The threshold has been reached! This event is happening.",
  cancelled: () => "This event was cancelled.",
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
  // what the backer's own card reported last (a withdrawal): the page refreshes into a new copy (the
  // cached copies are keyed by data version, so this panel remounts) and the message must survive it
  const [withdrawn, setWithdrawn] = useState<string | null>(null);
  useEffect(() => {
    const note = lastWithdrawal;
    if (!note || note.campaignId !== panel.campaignId || Date.now() - note.at > 15_000) return;
    lastWithdrawal = null;
    // Runs on arrival: shows the message the previous copy of this panel could not keep.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setWithdrawn(note.message);
  }, [panel.campaignId]);
  const onWithdrawn = useCallback(
    (message: string) => {
      lastWithdrawal = { campaignId: panel.campaignId, message, at: Date.now() };
      setWithdrawn(message);
    },
    [panel.campaignId],
  );
  // The sticky bar (small screens) shows while the panel itself is out of view.
  const sectionRef = useRef<HTMLElement>(null);
  const [panelInView, setPanelInView] = useState(false);
  useEffect(() => {
    const el = sectionRef.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setPanelInView(entry.isIntersecting));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Back from a bank's authentication page (Stripe redirect): CommitFlow finishes the commit.
  useEffect(() => {
    if (paymentsMode !== "stripe" || !publishableKey) return;
    // Runs once on arrival; the state update starts the flow that reads the redirect's parameters.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (new URLSearchParams(window.location.search).has("setup_intent_client_secret")) setFlow("resume");
  }, [paymentsMode, publishableKey]);

  // Back from signing in to commit (issue 18: ?commit=1): the commit dialog opens again, once.
  const joinable = isJoinableCta(panel.cta);
  const canOpen = panel.signedIn && joinable && (panel.block === null || panel.block === "signedOut");
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has("commit")) return;
    url.searchParams.delete("commit");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    // Runs once on arrival: the state update opens the dialog the person asked for before signing in.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (canOpen) setFlow("open");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Focus goes back to the Commit control when the dialogs close (issue 17: it dropped to the top).
  const commitButton = useRef<HTMLButtonElement>(null);
  const wantsFocus = useRef(false);
  const focusControl = useCallback(() => {
    const button = commitButton.current;
    if (button && !button.disabled) button.focus();
    else sectionRef.current?.focus(); // committed now: the button is disabled, the panel takes focus
  }, []);
  const onExit = useCallback(
    (message?: string) => {
      setFlow("closed");
      setError(message ?? null);
      wantsFocus.current = true;
      requestAnimationFrame(focusControl);
    },
    [focusControl],
  );
  // A commit's result shows above the page (root layout) while the page refreshes behind it; this
  // panel may be a new copy by then. When the result closes, focus comes back here.
  const onResult = useCallback(() => setFlow("closed"), []);
  const shown = useShownResult();
  const showingOurs = shown?.campaignId === panel.campaignId;
  const wasShowing = useRef(showingOurs);
  useEffect(() => {
    if (wasShowing.current && !showingOurs) requestAnimationFrame(focusControl);
    wasShowing.current = showingOurs;
  }, [showingOurs, focusControl]);
  // The page refreshes after a commit (the button turns into "You're in"): focus stays in the panel.
  useEffect(() => {
    if (!wantsFocus.current) return;
    if (!document.activeElement || document.activeElement === document.body) focusControl();
  }, [panel.cta, focusControl]);

  function onCommitClick() {
    setError(null);
    setWithdrawn(null);
    if (!panel.signedIn) {
      setSignInPrompt(true);
      return;
    }
    setFlow("open");
  }

  const open = joinable;
  // A signed-in viewer may still be blocked where the phase is open (e.g. an admin's own rules).
  const blocked = !open || (panel.block !== null && panel.block !== "signedOut");
  const prefetch = panel.signedIn && !blocked ? () => void loadFlow() : undefined;

  const onBarClick = () => {
    sectionRef.current?.scrollIntoView({ behavior: "smooth", block: "center" });
    onCommitClick();
  };
  // issue 36: a show-up deposit is said with the price ("Free + $10.00 deposit")
  const deposit =
    panel.depositCents > 0 && !panel.crowdfund ? ` + ${formatCents(panel.depositCents)} deposit` : "";
  const priceText = panel.crowdfund
    ? "Pledge from $1"
    : panel.ticketPriceCents > 0
      ? `${formatCents(panel.ticketPriceCents)}${deposit} only if it happens`
      : deposit
        ? `Free${deposit}, only if it happens`
        : "Free";

  return (
    <section
      ref={sectionRef}
      tabIndex={-1}
      aria-label="Commit"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      {/* Small screens: the Commit control stays in reach while the panel is scrolled away (issue 17). */}
      {open && !blocked && !panelInView && flow === "closed" && (
        <div className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] backdrop-blur lg:hidden">
          <div className="mx-auto flex max-w-6xl items-center justify-between gap-3">
            <p className="min-w-0 text-sm">
              <span className="block truncate font-semibold text-slate-900">{panel.title}</span>
              <span className="text-slate-600">{priceText}</span>
            </p>
            <Button
              className="shrink-0"
              aria-label={panel.cta === "waitlist" ? "Join the waitlist" : "Commit to this event"}
              onClick={onBarClick}
            >
              {CALL_TO_ACTION_LABELS[panel.cta]}
            </Button>
          </div>
        </div>
      )}
      <Button
        ref={commitButton}
        size="lg"
        className="w-full"
        variant={
          joinable
            ? "primary"
            : panel.condition
              ? "pending"
              : panel.cta === "committed" || panel.cta === "confirmed"
                ? "positive"
                : "quiet"
        }
        disabled={blocked}
        onClick={onCommitClick}
        onPointerEnter={prefetch}
        onFocus={prefetch}
      >
        {/* a place held on a condition is not "You're in" (issue 34): the condition and the count now */}
        {panel.condition && panel.cta === "committed"
          ? panel.condition.text
          : CALL_TO_ACTION_LABELS[panel.cta]}
      </Button>
      {panel.cta === "committed" || panel.cta === "waiting" ? (
        <>
          <p className="mt-3 text-center text-sm text-slate-600">{CTA_TEXT[panel.cta](panel)}</p>
          <MyCommitmentCard
            campaignId={panel.campaignId}
            title={panel.title}
            paymentsMode={paymentsMode}
            publishableKey={publishableKey}
            onWithdrawn={onWithdrawn}
          />
        </>
      ) : panel.cta === "waitlist" ? (
        <p className="mt-3 text-center text-sm text-slate-600">
          {blocked && panel.block === "notApproved" ? CTA_TEXT.closed(panel) : CTA_TEXT.waitlist(panel)}
        </p>
      ) : panel.cta !== "commit" ? (
        <p className="mt-3 text-center text-sm text-slate-600">{CTA_TEXT[panel.cta](panel)}</p>
      ) : (
        blocked &&
        panel.block === "notApproved" && (
          <p className="mt-3 text-center text-sm text-slate-600">{CTA_TEXT.closed(panel)}</p>
        )
      )}
      {withdrawn && panel.cta !== "committed" && panel.cta !== "waiting" && (
        <p role="status" className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          {withdrawn}
        </p>
      )}
      {signInPrompt && (
        <div
          role="alert"
          className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          {COMMIT_MESSAGES.signedOut}.{" "}
          <Link href={signInUrl(commitReturnPath(panel.campaignId))} className="font-semibold underline">
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
          onResult={onResult}
        />
      )}
    </section>
  );
}
