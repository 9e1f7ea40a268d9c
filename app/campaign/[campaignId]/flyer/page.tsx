import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import QRCode from "qrcode";
import { getViewer } from "@/lib/access/viewer";
import { formatCents, plural } from "@/lib/format";
import { formatEventRange, formatInZone } from "@/lib/campaigns/event-time";
import { placeLine } from "@/lib/campaigns/place";
import { getShareInfo } from "@/lib/sharing/queries";
import { PrintButton } from "@/components/sharing/print-button";
import type { Phase } from "@/lib/events/lifecycle";

type Props = { params: Promise<{ campaignId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { campaignId } = await params;
  const info = await getShareInfo(campaignId, await getViewer());
  return { title: info ? `Flyer: ${info.title}` : "Campaign not found", robots: { index: false } };
}

/** What a flyer says in place of its call to commit once the event no longer takes commitments. */
const FLYER_CLOSED: Record<Phase, string> = {
  collecting: "This event is not taking commitments right now.",
  ended: "Commitments for this event have closed.",
  confirmed: "It's happening! Commitments have closed.",
  charged: "It's happening! Commitments have closed.",
  expired: "This event did not reach its goal. Nobody was charged.",
  cancelled: "This event was cancelled.",
};

/** A printable A4/Letter flyer with a QR code to the event. */
export default async function FlyerPage({ params }: Props) {
  const { campaignId } = await params;
  const info = await getShareInfo(campaignId, await getViewer());
  if (!info) redirect("/");
  const svg = await QRCode.toString(info.url, {
    type: "svg",
    margin: 1,
    errorCorrectionLevel: "M",
    color: { dark: "#0f172a", light: "#ffffff" },
  });
  const qr = `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
  const unit = info.crowdfund
    ? `$${info.goal.toLocaleString("en-US")}`
    : plural(info.goal, "person", "people");

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 print:max-w-none print:p-0">
      <style>{`@media print { body > header, body > footer, body .fixed { display: none !important; } @page { margin: 14mm; } }`}</style>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link href={`/campaign/${info.id}`} className="text-sm text-brand-700 hover:underline">
          ← Back to the event
        </Link>
        <PrintButton />
      </div>
      <article className="rounded-2xl border-4 border-brand-600 bg-white p-6 text-center sm:p-10 print:rounded-none print:border-8">
        <p className="text-sm font-bold uppercase tracking-[0.2em] text-brand-700">PactNexus</p>
        <h1 className="mt-4 wrap-anywhere text-3xl font-extrabold text-slate-900 sm:text-5xl">
          {info.title}
        </h1>
        <p className="mx-auto mt-4 max-w-xl whitespace-pre-line wrap-anywhere text-base text-slate-700 sm:text-lg">
          {info.description}
        </p>
        {/* the flyer is posted in public: the public place only, never an attendee-only address */}
        <p className="mt-6 text-lg font-semibold text-slate-800 sm:text-xl">
          {info.startsAt
            ? formatEventRange(info.startsAt, info.endsAt, info.timeZone)
            : "Date to be announced"}
          {placeLine(info.publicPlace) ? ` · ${placeLine(info.publicPlace)}` : ""}
        </p>
        {/* the event's phase decides the call (lib/events/lifecycle): a flyer never asks people to
            commit to an event that is cancelled, over, or no longer taking commitments */}
        {info.joinable ? (
          <>
            <p className="mt-3 text-xl font-bold text-slate-900 sm:text-2xl">
              {info.phase === "collecting"
                ? `It only happens if ${unit} commit by ${formatInZone(info.deadline, info.timeZone)}.`
                : `It's happening! Join by ${formatInZone(info.deadline, info.timeZone)}.`}
            </p>
            <p className="mt-2 text-slate-700">
              {info.ticketPriceCents > 0
                ? info.phase === "collecting"
                  ? `Ticket ${formatCents(info.ticketPriceCents)} — charged only if the goal is met. Otherwise nobody pays.`
                  : `Ticket ${formatCents(info.ticketPriceCents)}.`
                : "Free event."}
              {info.deposit ? ` Plus a ${info.deposit}.` : ""}
            </p>
          </>
        ) : (
          <p className="mt-3 text-xl font-bold text-slate-900 sm:text-2xl" data-testid="flyer-closed">
            {FLYER_CLOSED[info.phase]}
          </p>
        )}
        {/* eslint-disable-next-line @next/next/no-img-element -- an inline SVG data URL, nothing to optimise */}
        <img
          src={qr}
          alt={`QR code linking to ${info.url}`}
          className="mx-auto mt-8 h-56 w-56 sm:h-64 sm:w-64"
        />
        <p className="mt-3 text-lg font-semibold text-slate-900">
          {info.joinable ? "Scan to commit" : "Scan to see the event"}
        </p>
        <p className="mt-1 break-all text-sm text-slate-600">{info.url}</p>
      </article>
    </div>
  );
}
