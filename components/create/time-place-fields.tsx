"use client";

import { useMemo } from "react";
import { Field, Input, inputClass } from "@/components/ui/field";
import type { CampaignFormValues } from "@/lib/campaigns/schema";
import { formatInZone, fromWallClock, timeZoneNames } from "@/lib/campaigns/event-time";
import { ADDRESS_MAX, AREA_MAX, VENUE_MAX } from "@/lib/campaigns/limits";

type SetField = <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) => void;

/** What a wall-clock value means in the chosen zone, under its input: "Tue, Dec 1, 2026, 7:00 PM EST". */
export function zonedHint(wall: string, zone: string): string | undefined {
  if (!wall || !zone) return undefined;
  const r = fromWallClock(wall, zone);
  return r.ok ? formatInZone(r.date, zone) : undefined;
}

/**
 * Step 2's "When and where" (issue 16, DESIGN §1 "event time and place"): all optional, so a form
 * filled with SPEC §5's fields alone still creates an event. Times are wall-clock times in the
 * event's zone (the browser's by default).
 */
export function TimePlaceFields({
  values,
  set,
  err,
}: {
  values: CampaignFormValues;
  set: SetField;
  err: (k: keyof CampaignFormValues) => string | undefined;
}) {
  const zones = useMemo(() => {
    const names = timeZoneNames();
    return names.includes(values.timeZone) ? names : [values.timeZone, ...names];
  }, [values.timeZone]);

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
      <Field
        id="timeZone"
        label="Time zone"
        error={err("timeZone")}
        hint="Every time on this form is in this zone"
      >
        <select
          id="timeZone"
          className={inputClass}
          value={values.timeZone}
          onChange={(e) => set("timeZone", e.target.value)}
          aria-invalid={!!err("timeZone") || undefined}
        >
          {zones.map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, " ")}
            </option>
          ))}
        </select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="startsAt"
          label="Starts"
          error={err("startsAt")}
          hint={zonedHint(values.startsAt, values.timeZone) ?? "Not after the deadline"}
        >
          <Input
            id="startsAt"
            type="datetime-local"
            value={values.startsAt}
            onChange={(e) => set("startsAt", e.target.value)}
            invalid={!!err("startsAt")}
          />
        </Field>
        <Field
          id="endsAt"
          label="Ends"
          error={err("endsAt")}
          hint={zonedHint(values.endsAt, values.timeZone)}
        >
          <Input
            id="endsAt"
            type="datetime-local"
            value={values.endsAt}
            onChange={(e) => set("endsAt", e.target.value)}
            invalid={!!err("endsAt")}
          />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="venue" label="Venue" error={err("venue")}>
          <Input
            id="venue"
            value={values.venue}
            maxLength={VENUE_MAX + 20}
            onChange={(e) => set("venue", e.target.value)}
            invalid={!!err("venue")}
            placeholder="Roxy Cinema"
          />
        </Field>
        <Field id="address" label="Address" error={err("address")}>
          <Input
            id="address"
            value={values.address}
            maxLength={ADDRESS_MAX + 20}
            onChange={(e) => set("address", e.target.value)}
            invalid={!!err("address")}
            placeholder="2 6th Ave, New York, NY"
          />
        </Field>
      </div>
      <div className="flex items-start gap-3">
        <input
          id="addressPrivate"
          type="checkbox"
          checked={values.addressPrivate}
          onChange={(e) => set("addressPrivate", e.target.checked)}
          className="mt-1 h-5 w-5 rounded border-slate-300 accent-brand-600"
        />
        <label htmlFor="addressPrivate" className="text-sm">
          <span className="block font-semibold text-slate-800">
            Share the address and online link with attendees only
          </span>
          <span className="text-slate-600">
            Everyone else sees the venue and the area below; committed attendees see the full address and
            link.
          </span>
        </label>
      </div>
      {values.addressPrivate && (
        <Field
          id="area"
          label="Public area (optional)"
          error={err("area")}
          hint="For example: Lower East Side"
        >
          <Input
            id="area"
            value={values.area}
            maxLength={AREA_MAX + 20}
            onChange={(e) => set("area", e.target.value)}
            invalid={!!err("area")}
          />
        </Field>
      )}
      <Field
        id="onlineUrl"
        label="Online link (optional)"
        error={err("onlineUrl")}
        hint="For an online event"
      >
        <Input
          id="onlineUrl"
          type="url"
          inputMode="url"
          value={values.onlineUrl}
          onChange={(e) => set("onlineUrl", e.target.value)}
          invalid={!!err("onlineUrl")}
          placeholder="https://"
        />
      </Field>
    </section>
  );
}
