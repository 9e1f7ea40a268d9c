"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useServerActions } from "@/components/actions/server-actions";
import { Button } from "@/components/ui/button";
import { EventField, TextFields } from "@/components/campaigns/event-field";
import { TimePlaceFields, zonedHint } from "@/components/create/time-place-fields";
import { DepositSection } from "@/components/create/deposit-section";
import { formIsPaid } from "@/lib/campaigns/fields";
import {
  emptyCampaignForm,
  eventField,
  type CampaignFormValues,
  type EventFieldName,
} from "@/lib/campaigns/schema";
import { DEADLINE_EXTENSION_MAX_DAYS } from "@/lib/campaigns/limits";
import { REFUND_BONUS_TEXTS, RESUBMIT_TEXTS } from "@/lib/campaigns/texts";
import type { EditView } from "@/lib/campaigns/edit-view";

/**
 * The organizer's edit form (issue 17 item 2). What may not change is shown read-only with the
 * reason; the server (lib/campaigns/edit) decides again. A new date or place is emailed to everyone
 * who committed, with their calendar entry moved; so is a later deadline (issue 31), up to the latest
 * one the form shows.
 */
const FIXED = "Fixed: someone has committed";

export function EditEventForm({ view }: { view: EditView }) {
  const { updateCampaignAction } = useServerActions();
  const router = useRouter();
  const [values, setValues] = useState<CampaignFormValues>({ ...emptyCampaignForm, ...view.values });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [busy, startTransition] = useTransition();

  const set = <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!e[key]) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });
  };
  const err = (k: keyof CampaignFormValues) => errors[k];
  const field = { values, set, err, form: "edit" as const };
  // what a rule of lib/campaigns/edit.ts holds still now (the field's `lockedBy`)
  const locks = { money: view.moneyLocked, deadline: !view.deadlineOpen };
  const locked = (name: EventFieldName) => {
    const rule = eventField(name).edit?.lockedBy;
    return rule ? locks[rule] : false;
  };
  const paid = view.crowdfund || formIsPaid(values);
  // issue 34: saving a rejected event sends it back to review while resubmits are left
  const resubmit = (view.rejection?.resubmitsLeft ?? 0) > 0;

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    setNotice(null);
    startTransition(async () => {
      try {
        const result = await updateCampaignAction(view.id, values, { resubmit });
        if (!result.ok) {
          setErrors(result.fieldErrors ?? {});
          setNotice({ tone: "error", text: result.error });
          return;
        }
        setErrors({});
        setNotice({
          tone: "ok",
          text: resubmit
            ? RESUBMIT_TEXTS.done
            : result.data.emailed > 0
              ? `Your changes are saved. ${result.data.emailed} ${result.data.emailed === 1 ? "person who committed was" : "people who committed were"} emailed about the change.`
              : "Your changes are saved.",
        });
        router.refresh();
      } catch {
        setNotice({ tone: "error", text: "Error saving your changes. Please try again." });
      }
    });
  };

  return (
    <form onSubmit={save} noValidate className="space-y-6">
      <div>
        <Link href={`/campaign/${view.id}`} className="text-sm font-medium text-brand-700 hover:underline">
          ← Back to event
        </Link>
        <h1 className="mt-3 text-2xl font-bold text-slate-900 sm:text-3xl">Edit event</h1>
        <p className="mt-1 text-slate-600">
          A new date or place is emailed to everyone who committed, and their calendar entry moves with it. A
          later deadline is emailed to them too, with the old and the new date.
        </p>
      </div>

      <fieldset className="space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <legend className="sr-only">Event details</legend>
        <EventField name="title" {...field} />
        <EventField name="description" {...field} />
        <TextFields {...field} />

        <div className="grid gap-5 sm:grid-cols-2">
          <EventField
            name="goal"
            {...field}
            readOnly={locked("goal")}
            hint={locked("goal") ? FIXED : undefined}
          />
          {!view.crowdfund && (
            <EventField
              name="ticketPrice"
              {...field}
              readOnly={locked("ticketPrice")}
              hint={locked("ticketPrice") ? FIXED : undefined}
            />
          )}
          {!view.crowdfund && (
            <EventField
              name="capacity"
              {...field}
              // may only be raised once people committed: read-only when there was no limit
              readOnly={locked("capacity") && !view.values.capacity}
              hint={
                locked("capacity")
                  ? values.capacity
                    ? "May only be raised; raising it promotes the first on the waitlist"
                    : "No limit (a capacity can only be set before anyone commits)"
                  : "Optional: at least the goal; empty for no limit"
              }
            />
          )}
          {!view.crowdfund && (
            <EventField
              name="maxSeats"
              {...field}
              readOnly={locked("maxSeats")}
              hint={locked("maxSeats") ? FIXED : undefined}
            />
          )}
        </div>
        <EventField
          name="deadline"
          {...field}
          max={view.deadlineOpen ? view.latestDeadline.wall : undefined}
          readOnly={locked("deadline")}
          hint={
            view.deadlineOpen
              ? view.latestDeadline.original
                ? `${zonedHint(values.deadline, values.timeZone) ?? ""} · may only move later, to ${view.latestDeadline.text} at the latest (at most ${DEADLINE_EXTENSION_MAX_DAYS} days after the original deadline, ${view.latestDeadline.original}, and never past the start). Everyone who committed or is waiting is emailed the new deadline.`
                : `${zonedHint(values.deadline, values.timeZone) ?? ""} · may only move later, to ${view.latestDeadline.text} at the latest. Once someone has committed, later moves add at most ${DEADLINE_EXTENSION_MAX_DAYS} days in all.`
              : "Fixed: the event is no longer collecting commitments"
          }
        />
        {/* issue 31: the organizer's own promise, said so; paid events only, 1–20%; fixed like the price */}
        <div className="space-y-3 rounded-lg border border-slate-200 p-4">
          <EventField
            name="refundBonusEnabled"
            {...field}
            disabled={locked("refundBonusEnabled") || (!paid && !values.refundBonusEnabled)}
            hint={
              locked("refundBonusEnabled")
                ? `${REFUND_BONUS_TEXTS.formDescription} Fixed: someone has committed.`
                : paid
                  ? undefined
                  : REFUND_BONUS_TEXTS.freeHint
            }
          />
          {values.refundBonusEnabled && (
            <EventField name="refundBonusPercentage" {...field} readOnly={locked("refundBonusPercentage")} />
          )}
        </div>
        {/* issue 36: the show-up deposit, fixed like the price once someone committed */}
        {!view.crowdfund && (
          <DepositSection {...field} pactType="paction" locked={locked("depositEnabled")} />
        )}
        <p className="text-sm text-slate-600">
          The pact type and whether attendees are anonymous were set when the event was created and stay as
          they are.
        </p>
      </fieldset>

      <TimePlaceFields values={values} set={set} err={err} />

      {notice && (
        <p
          role={notice.tone === "error" ? "alert" : "status"}
          className={`rounded-lg px-4 py-3 text-sm ${notice.tone === "error" ? "bg-red-50 text-red-700" : "bg-emerald-50 text-emerald-800"}`}
        >
          {notice.text}
        </p>
      )}
      <div className="flex justify-end gap-3">
        <Link
          href={`/campaign/${view.id}`}
          className="inline-flex items-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          Cancel
        </Link>
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : resubmit ? RESUBMIT_TEXTS.save : "Save changes"}
        </Button>
      </div>
    </form>
  );
}
