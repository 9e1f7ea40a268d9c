import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { getEditView } from "@/lib/campaigns/edit-view";
import { MANAGE_DENIED_NOTICE } from "@/lib/access/texts";
import { EditEventForm } from "@/components/campaigns/edit-event-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Edit event", robots: { index: false } };

/** The organizer edits their event (creator only; everyone else goes home with a notice). */
export default async function EditEventPage({ params }: { params: Promise<{ campaignId: string }> }) {
  const { campaignId } = await params;
  const view = await getEditView(await getViewer(), campaignId);
  if (!view) redirect(`/?notice=${MANAGE_DENIED_NOTICE}`);
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-10">
      <EditEventForm view={view} />
    </div>
  );
}
