"use client";

import { useMemo } from "react";
import { EventField, type FieldError, type SetField } from "@/components/campaigns/event-field";
import type { CampaignFormValues } from "@/lib/campaigns/schema";
import { timeZoneNames } from "@/lib/campaigns/event-time";

export { zonedHint } from "@/components/campaigns/event-field";

/** The event's time zone (a select of every IANA zone; the chosen one listed even if unknown here). */
export function TimeZoneField({
  values,
  set,
  err,
}: {
  values: CampaignFormValues;
  set: SetField;
  err: FieldError;
}) {
  const zones = useMemo(() => {
    const names = timeZoneNames();
    return (names.includes(values.timeZone) ? names : [values.timeZone, ...names]).map(
      (z) => [z, z.replace(/_/g, " ")] as const,
    );
  }, [values.timeZone]);
  return <EventField name="timeZone" values={values} set={set} err={err} options={zones} />;
}

/**
 * Step 2's "When and where" (issue 16, DESIGN §1 "event time and place"): all optional, so a form
 * filled with SPEC §5's fields alone still creates an event. Times are wall-clock times in the
 * event's zone (the browser's by default). The create wizard asks for the zone on step 1, before
 * the deadline (issue 34 item 6: SPEC validates the deadline there), so it passes `withZone={false}`;
 * the edit form has one page and shows it here.
 */
export function TimePlaceFields({
  values,
  set,
  err,
  withZone = true,
}: {
  values: CampaignFormValues;
  set: SetField;
  err: FieldError;
  withZone?: boolean;
}) {
  const field = { values, set, err };

  return (
    <section aria-labelledby="when-where" className="space-y-4 rounded-lg border border-slate-200 p-4">
      <div>
        <h2 id="when-where" className="font-semibold text-slate-800">
          When and where (optional)
        </h2>
        <p className="text-sm text-slate-600">
          Without a start time the event page says &ldquo;Date to be announced&rdquo;.
        </p>
      </div>
      {withZone ? (
        <TimeZoneField {...field} />
      ) : (
        <p className="text-sm text-slate-600">
          Times are in {values.timeZone.replace(/_/g, " ")} (the time zone chosen on step 1).
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <EventField name="startsAt" {...field} />
        <EventField name="endsAt" {...field} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <EventField name="venue" {...field} />
        <EventField name="address" {...field} />
      </div>
      <EventField name="addressPrivate" {...field} />
      {values.addressPrivate && <EventField name="area" {...field} />}
      <EventField name="onlineUrl" {...field} />
    </section>
  );
}
