import { isPaidEvent } from "@/lib/events/lifecycle";
import { Card } from "@/components/ui/card";
import { ButtonLink } from "@/components/ui/button";
import { organizerNameFor, type CampaignView } from "@/lib/campaigns/queries";
import { PAYMENT_TYPE_LABELS, paymentHandle } from "@/lib/campaigns/display";
import { formatDate } from "@/lib/format";

export async function CreatorBox({ campaign, canEdit }: { campaign: CampaignView; canEdit: boolean }) {
  const name = await organizerNameFor(campaign);
  const handle = paymentHandle(campaign.paymentType, campaign.paymentMethod);
  return (
    <Card>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Organizer</h2>
      {/* the display name and email only to those DESIGN §1 allows (lib/campaigns/queries); others see SPEC's words */}
      {name && campaign.creatorEmail ? (
        <>
          <p className="mt-1 font-semibold wrap-anywhere text-slate-900">{name}</p>
          <p className="text-sm break-all text-slate-600">{campaign.creatorEmail}</p>
        </>
      ) : (
        <p className="mt-1 font-semibold break-all text-slate-900">
          {campaign.creatorEmail ?? "Event organizer"}
        </p>
      )}
      <dl className="mt-3 space-y-1 text-sm text-slate-600">
        <div className="flex justify-between gap-3">
          <dt>Created</dt>
          <dd>{formatDate(campaign.createdAt)}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt>Payment method</dt>
          <dd className="text-right break-all">
            {handle && campaign.paymentType
              ? `${PAYMENT_TYPE_LABELS[campaign.paymentType]} ${handle}`
              : isPaidEvent(campaign)
                ? "Card"
                : "Not required"}
          </dd>
        </div>
      </dl>
      {campaign.viewer?.isCreator && (
        <div className="mt-4 grid gap-2">
          {/* not prefetched: per-person pages rendered per request, opened by one viewer in a hundred
              (each prefetch was a render), and a click during a still-running prefetch of the same
              page could be lost (e2e edit.spec, 1 run in 4 on a loaded machine) */}
          <ButtonLink
            href={`/campaign/${campaign.id}/manage`}
            prefetch={false}
            variant="secondary"
            className="w-full"
          >
            Manage Campaign
          </ButtonLink>
          {canEdit && (
            <ButtonLink
              href={`/campaign/${campaign.id}/edit`}
              prefetch={false}
              variant="ghost"
              className="w-full"
            >
              Edit event
            </ButtonLink>
          )}
        </div>
      )}
    </Card>
  );
}
