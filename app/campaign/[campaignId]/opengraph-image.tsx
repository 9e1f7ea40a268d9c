import { ImageResponse } from "next/og";
import { progressPercent } from "@/lib/format";
import { formatDayInZone } from "@/lib/campaigns/event-time";
import { placeLine } from "@/lib/campaigns/place";
import { getShareInfo, shareProgress } from "@/lib/sharing/queries";
import { coverDataUrl } from "@/lib/images/queries";

export const size = { width: 1200, height: 630 };
export const contentType = "image/png";
export const alt = "PactNexus event";

/**
 * The social preview of an event: title, progress and deadline, drawn on the server. Crawlers are
 * visitors, so only approved events get one; others get the brand card (nothing about them leaks).
 */
export default async function OpenGraphImage({ params }: { params: Promise<{ campaignId: string }> }) {
  const { campaignId } = await params;
  const info = await getShareInfo(campaignId, null).catch(() => null);
  const progress = info ? shareProgress(info) : 0;
  const pct = info ? progressPercent(progress, info.goal) : 0;
  const title = info
    ? info.title.length > 80
      ? `${info.title.slice(0, 77)}...`
      : info.title
    : "A nexus for pacts";
  const line = info
    ? info.crowdfund
      ? `$${progress.toLocaleString("en-US")} of $${info.goal.toLocaleString("en-US")} raised`
      : `${progress} of ${info.goal} committed`
    : "Events that only happen when enough people commit.";

  // the organizer's cover behind a light veil (issue 17); a cover holds nothing the privacy rules hide
  const cover = info?.coverId
    ? await coverDataUrl(info.coverId, size.width, size.height).catch(() => null)
    : null;

  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: 64,
        background: "linear-gradient(135deg, #eef2ff 0%, #ffffff 60%)",
        color: "#0f172a",
        fontFamily: "sans-serif",
        position: "relative",
      }}
    >
      {cover && (
        <img
          src={cover}
          alt=""
          width={size.width}
          height={size.height}
          style={{
            position: "absolute",
            top: 0,
            left: 0,
            width: size.width,
            height: size.height,
            objectFit: "cover",
          }}
        />
      )}
      {cover && (
        <div
          style={{
            position: "absolute",
            top: 0,
            left: 0,
            width: size.width,
            height: size.height,
            background:
              "linear-gradient(90deg, rgba(255,255,255,0.94) 0%, rgba(255,255,255,0.82) 60%, rgba(255,255,255,0.55) 100%)",
          }}
        />
      )}
      <div style={{ display: "flex", fontSize: 32, fontWeight: 700, color: "#4338ca" }}>PactNexus</div>
      <div style={{ display: "flex", flexDirection: "column" }}>
        <div style={{ display: "flex", fontSize: 68, fontWeight: 800, lineHeight: 1.1 }}>{title}</div>
        <div style={{ display: "flex", marginTop: 28, fontSize: 34, color: "#334155" }}>{line}</div>
        {info && (
          <div
            style={{
              display: "flex",
              marginTop: 20,
              width: "100%",
              height: 28,
              borderRadius: 14,
              background: "#e2e8f0",
            }}
          >
            <div
              style={{
                display: "flex",
                width: `${Math.max(pct, 2)}%`,
                height: 28,
                borderRadius: 14,
                background: "#4f46e5",
              }}
            />
          </div>
        )}
      </div>
      <div style={{ display: "flex", justifyContent: "space-between", fontSize: 28, color: "#475569" }}>
        <span>
          {info
            ? info.startsAt
              ? formatDayInZone(info.startsAt, info.timeZone) +
                (placeLine(info.publicPlace) ? ` · ${placeLine(info.publicPlace)}`.slice(0, 60) : "")
              : `Deadline ${formatDayInZone(info.deadline, info.timeZone)}`
            : "Nobody pays unless the threshold is met."}
        </span>
        <span>{info ? `${pct}%` : ""}</span>
      </div>
    </div>,
    size,
  );
}
