import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { YourTime } from "@/components/time/your-time";
import type { MyCommitment } from "@/lib/pledges/mine";

/**
 * A failed payment's banner (DESIGN §1 "failed payments"), on the event page's "Your commitment"
 * card and under My commitments: the amount and the date to pay by, what happens otherwise, the
 * automatic retry if one is coming, and the way to pay.
 */
export function RecoveryBanner({
  recovery,
  payUrl,
}: {
  recovery: NonNullable<MyCommitment["recovery"]>;
  payUrl: string | null;
}) {
  return (
    <div role="alert" className="rounded-lg bg-red-50 px-3 py-3 text-sm text-red-900 ring-1 ring-red-200">
      <p>
        <span className="font-semibold">{recovery.banner}</span>
        <YourTime iso={recovery.dueAt} zone={recovery.zone} />
      </p>
      <p className="mt-1">
        {recovery.consequence}
        {recovery.retry ? ` ${recovery.retry}` : ""}
      </p>
      {payUrl && (
        <Link href={payUrl} className={buttonClass("primary", "sm", "mt-2")}>
          Update card and pay
        </Link>
      )}
    </div>
  );
}
