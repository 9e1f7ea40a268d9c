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

type Props = { params: Promise<{ campaignId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { campaignId } = await params;
  const info = await getShareInfo(campaignId, await getViewer());
  return { title: info ? `Flyer: ${info.title}` : "Campaign not found", robots: { index: false } };
}

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
        <p className="mt-3 text-xl font-bold text-slate-900 sm:text-2xl">
          It only happens if {unit} commit by {formatInZone(info.deadline, info.timeZone)}.
        </p>
        <p className="mt-2 text-slate-700">
          {info.ticketPriceCents > 0
            ? `Ticket ${formatCents(info.ticketPriceCents)} — charged only if the goal is met. Otherwise nobody pays.`
            : "Free event."}
        </p>
        {/* eslint-disable-next-line @next/next/no-img-element -- an inline SVG data URL, nothing to optimise */}
        <img
          src={qr}
          alt={`QR code linking to ${info.url}`}
          className="mx-auto mt-8 h-56 w-56 sm:h-64 sm:w-64"
        />
        <p className="mt-3 text-lg font-semibold text-slate-900">Scan to commit</p>
        <p className="mt-1 break-all text-sm text-slate-600">{info.url}</p>
      </article>
    </div>
  );
}
