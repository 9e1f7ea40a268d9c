"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useServerActions } from "@/components/actions/server-actions";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea } from "@/components/ui/field";
import { TimePlaceFields, zonedHint } from "@/components/create/time-place-fields";
import { describePrice, formIsPaid } from "@/lib/campaigns/fields";
import { emptyCampaignForm, type CampaignFormValues } from "@/lib/campaigns/schema";
import {
  DEADLINE_EXTENSION_MAX_DAYS,
  DESCRIPTION_MAX,
  LOGISTICS_MAX,
  REFUND_BONUS_MAX,
  REFUND_BONUS_MIN,
  TITLE_MAX,
} from "@/lib/campaigns/limits";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";
import type { EditView } from "@/lib/campaigns/edit-view";

/**
 * The organizer's edit form (issue 17 item 2). What may not change is shown read-only with the
 * reason; the server (lib/campaigns/edit) decides again. A new date or place is emailed to everyone
 * who committed, with their calendar entry moved; so is a later deadline (issue 31), up to the latest
 * one the form shows.
 */
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

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    setNotice(null);
    startTransition(async () => {
      try {
        const result = await updateCampaignAction(view.id, values);
        if (!result.ok) {
          setErrors(result.fieldErrors ?? {});
          setNotice({ tone: "error", text: result.error });
          return;
        }
        setErrors({});
        setNotice({
          tone: "ok",
          text:
            result.data.emailed > 0
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
        <Field id="title" label="Title" error={err("title")}>
          <Input
            id="title"
            value={values.title}
            maxLength={TITLE_MAX + 20}
            onChange={(e) => set("title", e.target.value)}
            invalid={!!err("title")}
          />
        </Field>
        <Field
          id="description"
          label="Description"
          error={err("description")}
          hint={`Up to ${DESCRIPTION_MAX} characters`}
        >
          <Textarea
            id="description"
            rows={5}
            value={values.description}
            onChange={(e) => set("description", e.target.value)}
            invalid={!!err("description")}
          />
        </Field>
        <Field
          id="logisticalDetails"
          label="Logistical Details (optional)"
          error={err("logisticalDetails")}
          hint={`Up to ${LOGISTICS_MAX} characters`}
        >
          <Textarea
            id="logisticalDetails"
            rows={3}
            value={values.logisticalDetails}
            onChange={(e) => set("logisticalDetails", e.target.value)}
            invalid={!!err("logisticalDetails")}
          />
        </Field>

        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            id="goal"
            label="Goal (minimum attendees)"
            error={err("goal")}
            hint={view.moneyLocked ? "Fixed: someone has committed" : undefined}
          >
            <Input
              id="goal"
              inputMode="numeric"
              value={values.goal}
              readOnly={view.moneyLocked}
              aria-readonly={view.moneyLocked || undefined}
              onChange={(e) => set("goal", e.target.value)}
              invalid={!!err("goal")}
            />
          </Field>
          {!view.crowdfund && (
            <Field
              id="ticketPrice"
              label="Ticket Price ($)"
              error={err("ticketPrice")}
              hint={
                view.moneyLocked
                  ? "Fixed: someone has committed"
                  : (describePrice(values.ticketPrice) ?? undefined)
              }
            >
              <Input
                id="ticketPrice"
                inputMode="decimal"
                value={values.ticketPrice}
                readOnly={view.moneyLocked}
                aria-readonly={view.moneyLocked || undefined}
                onChange={(e) => set("ticketPrice", e.target.value)}
                invalid={!!err("ticketPrice")}
              />
            </Field>
          )}
          {!view.crowdfund && (
            <Field
              id="capacity"
              label="Capacity"
              error={err("capacity")}
              hint={
                view.moneyLocked
                  ? values.capacity
                    ? "May only be raised; raising it promotes the first on the waitlist"
                    : "No limit (a capacity can only be set before anyone commits)"
                  : "Optional: at least the goal; empty for no limit"
              }
            >
              <Input
                id="capacity"
                inputMode="numeric"
                value={values.capacity}
                readOnly={view.moneyLocked && !view.values.capacity}
                onChange={(e) => set("capacity", e.target.value)}
                invalid={!!err("capacity")}
              />
            </Field>
          )}
        </div>
        <Field
          id="deadline"
          label="Deadline"
          error={err("deadline")}
          hint={
            view.deadlineOpen
              ? view.latestDeadline.original
                ? `${zonedHint(values.deadline, values.timeZone) ?? ""} · may only move later, to ${view.latestDeadline.text} at the latest (at most ${DEADLINE_EXTENSION_MAX_DAYS} days after the original deadline, ${view.latestDeadline.original}, and never past the start). Everyone who committed or is waiting is emailed the new deadline.`
                : `${zonedHint(values.deadline, values.timeZone) ?? ""} · may only move later, to ${view.latestDeadline.text} at the latest. Once someone has committed, later moves add at most ${DEADLINE_EXTENSION_MAX_DAYS} days in all.`
              : "Fixed: the event is no longer collecting commitments"
          }
        >
          <Input
            id="deadline"
            type="datetime-local"
            value={values.deadline}
            max={view.deadlineOpen ? view.latestDeadline.wall : undefined}
            readOnly={!view.deadlineOpen}
            aria-readonly={!view.deadlineOpen || undefined}
            onChange={(e) => set("deadline", e.target.value)}
            invalid={!!err("deadline")}
          />
        </Field>
        <RefundBonusFields
          values={values}
          set={set}
          error={err("refundBonusPercentage")}
          locked={view.moneyLocked}
          paid={view.crowdfund || formIsPaid(values)}
        />
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
          {busy ? "Saving..." : "Save changes"}
        </Button>
      </div>
    </form>
  );
}

/**
 * The refund bonus (issue 31): the organizer's own promise, said so; paid events only, 1–20%; fixed
 * like the price once someone has committed.
 */
function RefundBonusFields({
  values,
  set,
  error,
  locked,
  paid,
}: {
  values: CampaignFormValues;
  set: <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) => void;
  error?: string;
  locked: boolean;
  /** a crowdfund, or a price above $0 as typed */
  paid: boolean;
}) {
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 p-4">
      <div className="flex items-start gap-3">
        <input
          id="refundBonusEnabled"
          type="checkbox"
          checked={values.refundBonusEnabled}
          disabled={locked || (!paid && !values.refundBonusEnabled)}
          onChange={(e) => set("refundBonusEnabled", e.target.checked)}
          className="mt-1 h-5 w-5 rounded border-slate-300 accent-brand-600"
        />
        <label htmlFor="refundBonusEnabled" className="text-sm">
          <span className="block font-semibold text-slate-800">{REFUND_BONUS_TEXTS.formLabel}</span>
          <span className="text-slate-600">
            {locked
              ? `${REFUND_BONUS_TEXTS.formDescription} Fixed: someone has committed.`
              : paid
                ? REFUND_BONUS_TEXTS.formDescription
                : REFUND_BONUS_TEXTS.freeHint}
          </span>
        </label>
      </div>
      {values.refundBonusEnabled && (
        <Field
          id="refundBonusPercentage"
          label="Refund bonus (%)"
          error={error}
          hint={REFUND_BONUS_TEXTS.formHint}
        >
          <Input
            id="refundBonusPercentage"
            type="number"
            min={REFUND_BONUS_MIN}
            max={REFUND_BONUS_MAX}
            step={1}
            value={values.refundBonusPercentage}
            readOnly={locked}
            aria-readonly={locked || undefined}
            onChange={(e) => set("refundBonusPercentage", e.target.value)}
            invalid={!!error}
          />
        </Field>
      )}
    </div>
  );
}
