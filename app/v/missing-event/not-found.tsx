import Link from "next/link";
import { ACCESS_TEXTS } from "@/lib/access/texts";

/** SPEC §2: "Campaign not found with Back to Home", answered with a 404 status. */
export default function CampaignNotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-3xl font-bold text-slate-900">{ACCESS_TEXTS.campaignNotFound}</h1>
      <p className="mt-2 text-slate-600">It may have been removed, or the link may be mistyped.</p>
      <Link
        href="/"
        className="mt-6 inline-block rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
      >
        Back to Home
      </Link>
    </div>
  );
}
