import Link from "next/link";
import { LogoutButton } from "@/components/auth/logout-button";
import { Badge } from "@/components/ui/badge";
import { ButtonLink, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { Viewer } from "@/lib/access/viewer";
import type { CreatorPact } from "@/lib/campaigns/queries";
import type { MyCommitment } from "@/lib/pledges/mine";
import type { ShownTicket } from "@/lib/tickets/queries";
import { MyCommitments } from "@/components/auth/my-commitments";
import { eventBadge, isCurrentEvent } from "@/lib/events/lifecycle";
import { formatDayInZone } from "@/lib/campaigns/event-time";
import { formatCents, formatDate, plural } from "@/lib/format";

/** SPEC §2 signed-in profile: the Profile Dashboard and "Your Active Pacts". */
export function ProfileDashboard({
  viewer,
  pacts,
  commitments,
  tickets = {},
  now = new Date(),
}: {
  viewer: Viewer;
  pacts: CreatorPact[];
  /** what the viewer committed to (issue 18), beside their own events */
  commitments: MyCommitment[];
  /** issue 36: the viewer's door tickets, by pledge id */
  tickets?: Record<string, ShownTicket>;
  now?: Date;
}) {
  // current and past apart (issue 16); a rejected event is past whatever its dates
  const current = pacts.filter((p) => p.approvalStatus !== "rejected" && isCurrentEvent(p, now));
  const past = pacts.filter((p) => !current.includes(p));
  const displayName = viewer.name?.trim() || "User";
  const initial = (viewer.name?.trim() || viewer.email).charAt(0).toUpperCase();
  return (
    <div className="space-y-8">
      <Card className="p-6 sm:p-8">
        <h1 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Profile Dashboard</h1>
        <div className="mt-4 flex flex-col gap-5 sm:flex-row sm:items-center">
          <div
            aria-hidden
            className="flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-brand-600 text-2xl font-bold text-white shadow-sm"
          >
            {initial}
          </div>
          <div className="min-w-0 flex-1">
            <p className="truncate text-2xl font-bold text-slate-900">{displayName}</p>
            <p className="truncate text-slate-600">{viewer.email}</p>
            {viewer.isAdmin && (
              <p className="mt-1">
                <Badge tone="purple">Admin</Badge>
              </p>
            )}
          </div>
          <div className="flex flex-col gap-2 sm:flex-row">
            <ButtonLink href="/create-campaign">Create New Pact</ButtonLink>
            <LogoutButton className={buttonClass("secondary")} />
          </div>
        </div>
      </Card>

      <MyCommitments items={commitments} tickets={tickets} />

      <section aria-labelledby="your-pacts">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="your-pacts" className="text-xl font-bold text-slate-900">
            Your Active Pacts
          </h2>
          <Link href="/payouts" className="text-sm font-semibold text-brand-700 hover:underline">
            Payouts →
          </Link>
        </div>
        {pacts.length === 0 ? (
          <div className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
            <p className="text-lg font-semibold text-slate-800">You haven&apos;t created any pacts yet</p>
            <p className="mt-1 text-sm text-slate-600">
              Set a goal and a deadline; nobody pays unless enough people commit.
            </p>
            <ButtonLink href="/create-campaign" className="mt-5">
              Create Your First Pact
            </ButtonLink>
          </div>
        ) : (
          <>
            {current.length === 0 && (
              <p className="mt-4 text-slate-600">Nothing current: every event you created is over.</p>
            )}
            <PactList pacts={current} now={now} />
            {past.length > 0 && (
              <>
                <h3 className="mt-8 text-lg font-semibold text-slate-700">Past events</h3>
                <PactList pacts={past} now={now} />
              </>
            )}
          </>
        )}
      </section>
    </div>
  );
}

function PactList({ pacts, now }: { pacts: CreatorPact[]; now: Date }) {
  if (pacts.length === 0) return null;
  return (
    <ul className="mt-4 grid gap-4 md:grid-cols-2">
      {pacts.map((pact) => (
        <li key={pact.id} className="min-w-0">
          <PactCard pact={pact} now={now} />
        </li>
      ))}
    </ul>
  );
}

function PactCard({ pact, now }: { pact: CreatorPact; now: Date }) {
  const badge = eventBadge(pact, now);
  const crowdfund = pact.pactType === "crowdfund";
  const free = !crowdfund && pact.ticketPriceCents === 0;
  const progress = crowdfund
    ? { value: pact.raisedCents, max: pact.goalCents }
    : { value: pact.committedCount, max: pact.goal };
  return (
    <Link
      href={`/campaign/${pact.id}`}
      className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition-shadow hover:border-brand-100 hover:shadow-md"
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
        <h3 className="min-w-0 wrap-anywhere font-semibold text-slate-900">{pact.title}</h3>
        <div className="flex shrink-0 flex-wrap gap-1 sm:justify-end">
          {/* one state badge: the approval until approved, then the phase (issue 16) */}
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </div>
      </div>
      <p className="mt-2 line-clamp-2 text-sm text-slate-600">{pact.description}</p>

      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
        <div>
          <dt className="text-slate-500">Goal</dt>
          <dd className="font-semibold text-slate-900">{free ? "Free" : formatCents(pact.goalCents)}</dd>
          {!crowdfund && (
            <dd className="text-xs text-slate-500">
              {plural(pact.goal, "attendee", "attendees")}
              {!free && ` × ${formatCents(pact.ticketPriceCents)}`}
            </dd>
          )}
        </div>
        <div>
          <dt className="text-slate-500">Raised</dt>
          <dd className="font-semibold text-slate-900">{formatCents(pact.raisedCents)}</dd>
          {!crowdfund && <dd className="text-xs text-slate-500">{pact.committedCount} committed</dd>}
        </div>
        <div>
          <dt className="text-slate-500">Created</dt>
          <dd className="text-slate-800">{formatDate(pact.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{pact.startsAt ? "Starts" : "Deadline"}</dt>
          <dd className="text-slate-800">{formatDayInZone(pact.startsAt ?? pact.deadline, pact.timeZone)}</dd>
        </div>
      </dl>
      <div className="mt-auto pt-4">
        <ProgressBar value={progress.value} max={progress.max} label={`Progress of ${pact.title}`} />
      </div>
    </Link>
  );
}
