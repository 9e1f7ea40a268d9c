import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { isAppError } from "@/lib/errors";
import { countsOf, doorCountsFor, openDoor } from "@/lib/tickets/check-in";
import { DOOR_TEXT } from "@/lib/tickets/door-helpers";
import { CheckInDesk } from "@/components/check-in/check-in-desk";
import { checkInAction, searchAtDoorAction } from "./actions";

type Props = { params: Promise<{ campaignId: string }> };

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Check-in", robots: { index: false } };

/**
 * The door (issue 36 item 2): the organizer and the door helpers they invited check attendees in by
 * camera, typed code or search. Rendered per request; the camera scanner loads only here, on demand.
 */
export default async function CheckInPage({ params }: Props) {
  const { campaignId } = await params;
  const viewer = await getViewer();
  if (!viewer) redirect(`/profile?next=${encodeURIComponent(`/campaign/${campaignId}/check-in`)}`);
  const door = await openDoor(viewer, campaignId).catch((e: unknown) => {
    if (isAppError(e)) return null;
    throw e;
  });
  if (!door)
    return (
      <div className="mx-auto max-w-xl px-4 py-10">
        <h1 className="text-xl font-bold text-slate-900">Check-in</h1>
        <p className="mt-3 text-slate-700">{DOOR_TEXT.denied}</p>
        <p className="mt-2 text-sm text-slate-600">
          You are signed in as {viewer.email}. A door helper signs in with the email address the organizer
          invited, and confirms it.
        </p>
      </div>
    );
  const counts = (await doorCountsFor(viewer, campaignId)) ?? countsOf([]);
  return (
    <div className="mx-auto max-w-3xl px-4 py-4 sm:py-8">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="wrap-anywhere text-xl font-extrabold text-slate-900 sm:text-2xl">
          Check-in: {door.campaign.title}
        </h1>
        {door.role === "organizer" ? (
          <Link
            href={`/campaign/${campaignId}/manage`}
            prefetch={false}
            className="text-sm text-brand-700 hover:underline"
          >
            Manage event
          </Link>
        ) : (
          <span className="text-sm text-slate-600">Door helper</span>
        )}
      </div>
      <CheckInDesk
        actions={{ checkInAction, searchAtDoorAction }}
        campaignId={campaignId}
        role={door.role}
        initialCounts={counts}
      />
    </div>
  );
}
