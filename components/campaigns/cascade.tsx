import "server-only";
import { Card } from "@/components/ui/card";
import { eventCascade } from "@/components/campaigns/event-data";
import { plural, pluralWord } from "@/lib/format";
import type { CascadeView } from "@/lib/pledges/queries";

/**
 * The cascade (issue 21): SPEC's tutorial animation with this event's real numbers — who is in,
 * who joins once enough are, and how many firm commitments would tip it. Aggregates only (counts
 * under 3 are not shown); nobody's condition is attributed to them. Nothing for an event without
 * conditions.
 */
export async function CascadeSection({
  campaignId,
  collecting,
}: {
  campaignId: string;
  collecting: boolean;
}) {
  const cascade = await eventCascade(campaignId);
  // fewer than 3 conditions not counted yet: not even that there are any is said (DESIGN §1)
  if (!cascade || !collecting || cascade.waiting === null) return null;
  return (
    <Card className="space-y-3" aria-labelledby="cascade-heading">
      <h2 id="cascade-heading" className="text-lg font-bold text-slate-900">
        The cascade
      </h2>
      <p className="text-slate-700">{cascadeSentence(cascade)}</p>
      <CascadeChart cascade={cascade} />
      <p className="text-xs text-slate-500">
        Some people said they come only if enough others do. They count the moment their number is reached.
      </p>
    </Card>
  );
}

export function cascadeSentence(c: CascadeView): string {
  const inNow = `${c.members} ${pluralWord(c.members, "is", "are")} in.`;
  if (c.firmNeeded === 0) return `${inNow} That reaches the goal.`;
  const tip = `${plural(c.firmNeeded, "more firm commitment", "more firm commitments")} would tip it.`;
  if (!c.next) return `${inNow} ${tip.charAt(0).toUpperCase()}${tip.slice(1)}`;
  // "3 more join once 4 people are in" (not "3 more are in once 1 are")
  return `${inNow} ${c.next.count} more ${pluralWord(c.next.count, "joins", "join")} once ${plural(c.next.at, "person is", "people are")} in — ${tip}`;
}

/** A small bar: members, the conditional who would join on the way, the firm commitments still needed. */
function CascadeChart({ cascade }: { cascade: CascadeView }) {
  const joining = cascade.next?.count ?? 0;
  const total = Math.max(cascade.goal, cascade.members + cascade.firmNeeded + joining);
  const pct = (n: number) => `${Math.max(0, Math.min(100, (n / total) * 100))}%`;
  const goalAt = pct(cascade.goal);
  return (
    <div aria-hidden="true" className="space-y-1">
      <div className="relative flex h-4 overflow-hidden rounded-full bg-slate-100">
        <div className="h-full bg-brand-600" style={{ width: pct(cascade.members) }} />
        <div
          className="h-full border-y border-dashed border-indigo-400 bg-[repeating-linear-gradient(45deg,var(--color-indigo-200)_0_6px,transparent_6px_12px)]"
          style={{ width: pct(cascade.firmNeeded) }}
        />
        <div className="h-full bg-indigo-300" style={{ width: pct(joining) }} />
        <div className="absolute inset-y-0 w-0.5 bg-emerald-600" style={{ left: goalAt }} />
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        <span>
          <span className="mr-1 inline-block size-2 rounded-full bg-brand-600" />
          in ({cascade.members})
        </span>
        <span>
          <span className="mr-1 inline-block size-2 rounded-full bg-indigo-200" />
          firm commitments needed ({cascade.firmNeeded})
        </span>
        {joining > 0 && (
          <span>
            <span className="mr-1 inline-block size-2 rounded-full bg-indigo-300" />
            join on the way ({joining})
          </span>
        )}
        <span>
          <span className="mr-1 inline-block h-2 w-0.5 bg-emerald-600" />
          goal ({cascade.goal})
        </span>
      </div>
    </div>
  );
}
