import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { signInUrl } from "@/lib/auth/return-path";
import { claimView } from "@/lib/pledges/friends";
import { ClaimSeat } from "@/components/commit/claim-seat";

type Props = { params: Promise<{ token: string }> };

export const metadata: Metadata = { title: "Claim your seat", robots: { index: false } };

/**
 * A named friend's claim link (issue 37): rendered per request, never cached. A visitor signs in
 * first and comes back here; a used, replaced or unknown link says so and changes nothing
 * (lib/pledges/friends claimView, claimSeat).
 */
export default async function ClaimPage({ params }: Props) {
  const { token } = await params;
  const viewer = await getViewer();
  const view = await claimView(viewer, token);
  if (view.state === "signIn") redirect(signInUrl(`/claim/${encodeURIComponent(token)}`));
  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <h1 className="text-2xl font-extrabold text-slate-900">Claim your seat</h1>
      {view.state === "unknown" ? (
        <p className="mt-3 text-slate-700" data-testid="claim-refused">
          {view.message}
        </p>
      ) : (
        <>
          <p className="mt-2 wrap-anywhere text-lg text-slate-800">
            <Link href={`/campaign/${view.campaignId}`} className="text-brand-700 hover:underline">
              {view.title}
            </Link>
          </p>
          {view.state === "refused" ? (
            <p className="mt-3 text-slate-700" data-testid="claim-refused">
              {view.message}
            </p>
          ) : (
            <ClaimSeat token={token} campaignId={view.campaignId} />
          )}
        </>
      )}
    </div>
  );
}
