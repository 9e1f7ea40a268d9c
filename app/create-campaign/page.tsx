import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SIGN_IN_TO_CREATE_NOTICE } from "@/lib/access/texts";
import { getViewer } from "@/lib/access/viewer";
import { listDrafts } from "@/lib/drafts/queries";
import { CreateEventForm } from "@/components/create/create-event-form";
import { toDraftView } from "@/components/create/draft-view";
import { env } from "@/lib/env";

export const metadata: Metadata = {
  title: "Create Event",
  description: "Create an event that only happens when enough people commit.",
};

export default async function CreateCampaignPage() {
  const viewer = await getViewer();
  if (!viewer) redirect(`/?notice=${SIGN_IN_TO_CREATE_NOTICE}`);
  const drafts = (await listDrafts(viewer.id)).map(toDraftView);
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-10">
      <h1 className="text-3xl font-bold text-slate-900">Create Event</h1>
      <p className="mt-1 text-slate-600">
        Set a minimum number of attendees and a deadline. Nobody pays unless the minimum is met.
      </p>
      <CreateEventForm
        drafts={drafts}
        fees={{ bps: env().PLATFORM_FEE_BPS, fixedCents: env().PLATFORM_FEE_FIXED_CENTS }}
      />
    </div>
  );
}
