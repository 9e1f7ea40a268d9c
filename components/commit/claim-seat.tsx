"use client";

import Link from "next/link";
import { useState } from "react";
import { useServerActions } from "@/components/actions/server-actions";
import { Button, buttonClass } from "@/components/ui/button";

/** The claim link's one button (issue 37): the seat moves into the signed-in friend's account. */
export function ClaimSeat({ token, campaignId }: { token: string; campaignId: string }) {
  const { claimSeatAction } = useServerActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function claim() {
    setBusy(true);
    setError(null);
    const res = await claimSeatAction({ token }).catch(() => null);
    setBusy(false);
    if (!res?.ok) return setError(res?.error ?? "Could not claim the seat. Please try again.");
    setDone(true);
  }

  if (done)
    return (
      <div className="mt-4" role="status" data-testid="claim-done">
        <p className="text-slate-800">The seat is yours: it is in My commitments with your own ticket.</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Link href={`/campaign/${campaignId}`} className={buttonClass("primary", "sm")}>
            View the event
          </Link>
          <Link href="/profile" className={buttonClass("secondary", "sm")}>
            My commitments
          </Link>
        </div>
      </div>
    );
  return (
    <div className="mt-4">
      <p className="text-slate-700">
        A seat at this event is held for you. Claim it to have it in your own account, with your own ticket
        and calendar entry.
      </p>
      <Button className="mt-3" onClick={() => void claim()} disabled={busy} data-testid="claim-seat">
        {busy ? "Claiming…" : "Claim your seat"}
      </Button>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
