import Link from "next/link";
import { PAYOUTS_SETUP_TEXTS } from "@/lib/access/texts";

/** Issue 34: a paid event waits for its organizer's payouts — said, with the way there. */
export function PayoutsSetupNotice({ className = "" }: { className?: string }) {
  return (
    <div
      role="status"
      data-testid="payouts-setup-notice"
      className={`rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900 ${className}`}
    >
      <p className="font-semibold">{PAYOUTS_SETUP_TEXTS.title}</p>
      <p className="mt-1 text-sm">
        {PAYOUTS_SETUP_TEXTS.text}{" "}
        <Link href="/payouts" className="font-semibold underline">
          {PAYOUTS_SETUP_TEXTS.link} →
        </Link>
      </p>
    </div>
  );
}
