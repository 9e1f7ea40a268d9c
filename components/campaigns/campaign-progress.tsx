import { Card } from "@/components/ui/card";
import { ProgressBar } from "@/components/ui/progress-bar";
import { Countdown, TimeLeft } from "@/components/campaigns/countdown";
import { EventTime } from "@/components/time/event-time";
import type { CampaignView } from "@/lib/campaigns/queries";
import { happeningLine, placesLeftText } from "@/lib/campaigns/display";
import { phaseOf, progress } from "@/lib/events/lifecycle";
import { GOING_AHEAD_TITLE, goalMetSentence, wentAheadSentence } from "@/lib/events/money-sentences";
import { formatCents, plural, progressPercent } from "@/lib/format";

/**
 * Confirmed banner, stats (attendees, time until deadline), progress bar and the live countdown
 * (SPEC §2). The phase decides what shows: the countdown says "Campaign ended" after the deadline
 * and is gone on a cancelled event; the count is said once, in the stats (issue 16). A confirmed
 * event's banner leads with what happens next: "Happening · 10 going · <start>" (issue 34). The
 * stats' time left and the countdown read one clock (components/campaigns/countdown.tsx).
 */
export function CampaignProgress({ campaign, now }: { campaign: CampaignView; now: number }) {
  const crowdfund = campaign.pactType === "crowdfund";
  const phase = phaseOf(campaign, new Date(now));
  const { value, goal } = progress(campaign);
  const pct = progressPercent(value, goal);
  const left = Math.max(0, goal - value);
  const goAhead = campaign.goAheadAt !== null && campaign.goAheadCount !== null;
  const happening = happeningLine(campaign, new Date(now));
  const places = placesLeftText(campaign, new Date(now));
  return (
    <Card className="space-y-5">
      {happening && (
        <p className="text-xl font-bold text-emerald-800" data-testid="happening">
          {happening}
          {campaign.startsAt && (
            <>
              {" · "}
              <EventTime at={campaign.startsAt} zone={campaign.timeZone} />
            </>
          )}
        </p>
      )}
      {goAhead && (
        <div
          role="status"
          className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-emerald-900"
        >
          <p className="font-semibold">{GOING_AHEAD_TITLE}</p>
          <p className="text-sm">{wentAheadSentence(campaign)}</p>
        </div>
      )}
      {campaign.status === "charged" && !goAhead && (
        <div
          role="status"
          className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-emerald-900"
        >
          <p className="font-semibold">Event Confirmed!</p>
          <p className="text-sm">
            {/* Said the same to every viewer (shared cached copies): true even while a backer's
                failed payment is being recovered — that backer sees it on their own commitment card. */}
            {goalMetSentence(campaign)}
          </p>
        </div>
      )}
      <dl className="grid grid-cols-2 gap-4">
        <div>
          <dt className="text-sm text-slate-500">{crowdfund ? "Raised" : "Attendees"}</dt>
          <dd className="text-2xl font-bold text-slate-900">
            {crowdfund ? formatCents(campaign.raisedCents) : campaign.committedCount}
            <span className="text-base font-medium text-slate-500">
              {" "}
              /{" "}
              {crowdfund ? formatCents(campaign.goal * 100) : plural(campaign.goal, "attendee", "attendees")}
            </span>
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-500">Time until deadline</dt>
          <dd className="text-lg font-semibold text-slate-900">
            {phase === "cancelled" ? (
              "Cancelled"
            ) : (
              <TimeLeft deadline={campaign.deadline.toISOString()} serverNow={now} />
            )}
          </dd>
        </div>
      </dl>
      <div className="space-y-2">
        <ProgressBar value={value} max={goal} label="Progress toward the goal" />
        <div className="flex justify-between gap-3 text-sm text-slate-600">
          <span>
            {left === 0
              ? "Goal reached"
              : phase === "collecting"
                ? crowdfund
                  ? `${formatCents(left * 100)} more needed`
                  : `${plural(left, "more person", "more people")} needed`
                : `${left} short of the goal`}
          </span>
          <span className="font-semibold">{pct}%</span>
        </div>
        {places && (
          <p className="text-sm font-semibold text-brand-700" data-testid="places-left">
            {places}
          </p>
        )}
      </div>
      {phase !== "cancelled" && (
        <div className="space-y-2">
          <Countdown deadline={campaign.deadline.toISOString()} serverNow={now} />
          <p className="text-center text-xs text-slate-500">
            Deadline: <EventTime at={campaign.deadline} zone={campaign.timeZone} />
          </p>
        </div>
      )}
    </Card>
  );
}
