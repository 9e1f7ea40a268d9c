"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";

export const CHARGE_ERROR = "Error charging attendees. Please try again.";

/**
 * Manual charge (SPEC §2 manage page, §8): a confirmation naming N attendees and the price each,
 * then POST /api/charge-attendees. The server decides who is charged; the count here is a preview.
 */
export function ChargeButton({
  campaignId,
  count,
  priceText,
}: {
  campaignId: string;
  count: number;
  priceText: string;
}) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function charge() {
    setBusy(true);
    setMessage(null);
    try {
      const res = await fetch("/api/charge-attendees", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ campaignId }),
      });
      const body = (await res.json().catch(() => null)) as {
        totalCharged?: number;
        totalFailed?: number;
      } | null;
      if (!res.ok || typeof body?.totalCharged !== "number") throw new Error(String(res.status));
      setMessage({
        ok: true,
        text: `Successfully charged ${body.totalCharged} attendees. ${body.totalFailed ?? 0} failed.`,
      });
      router.refresh();
    } catch {
      setMessage({ ok: false, text: CHARGE_ERROR });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <div>
      {count > 0 ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {count} saved {count === 1 ? "card is" : "cards are"} not charged yet. Charges run automatically;
            use this to charge them now.
          </p>
          <div className="mt-3">
            <Button variant="success" onClick={() => setConfirming(true)} disabled={busy}>
              {busy ? "Charging..." : `Charge ${count} ${count === 1 ? "attendee" : "attendees"}`}
            </Button>
          </div>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">Every saved card that can be charged has been charged.</p>
      )}
      {message && (
        <p
          role="status"
          className={`mt-2 text-sm font-medium ${message.ok ? "text-emerald-700" : "text-red-600"}`}
        >
          {message.text}
        </p>
      )}
      {confirming && (
        <Modal title="Charge attendees?" onClose={() => setConfirming(false)} dismissible={!busy} size="sm">
          <p className="text-slate-700">
            Charge {count} {count === 1 ? "attendee" : "attendees"} {priceText} each? Each saved card is
            charged once; attendees already charged are skipped.
          </p>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
              Cancel
            </Button>
            <Button variant="success" onClick={charge} disabled={busy}>
              {busy ? "Charging..." : "Charge now"}
            </Button>
          </div>
        </Modal>
      )}
    </div>
  );
}
