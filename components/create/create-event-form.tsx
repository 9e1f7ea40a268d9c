"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useState, useSyncExternalStore, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea, inputClass } from "@/components/ui/field";
import { DraftsPanel } from "@/components/create/drafts-panel";
import { TimePlaceFields, zonedHint } from "@/components/create/time-place-fields";
import { ReviewDialog } from "@/components/create/review-dialog";
import { isTimeZone, localTimeZone, toWallClock } from "@/lib/campaigns/event-time";
import { describePrice, formIsPaid } from "@/lib/campaigns/fields";
import type { DraftView } from "@/components/create/draft-view";
import {
  STEP1_FIELDS,
  createCampaignSchema,
  emptyCampaignForm,
  fieldErrorsOf,
  type CampaignFormValues,
  type CreateCampaignInput,
} from "@/lib/campaigns/schema";
import { draftSchema } from "@/lib/drafts/schema";
import {
  DESCRIPTION_MAX,
  GOAL_MAX,
  LOGISTICS_MAX,
  REFUND_BONUS_MAX,
  REFUND_BONUS_MIN,
  TITLE_MAX,
} from "@/lib/campaigns/limits";
import {
  CREATE_ERROR,
  DRAFT_DELETE_CONFIRM,
  DRAFT_DELETE_ERROR,
  DRAFT_SAVE_ERROR,
  DRAFT_SAVED,
  REFUND_BONUS_TEXTS,
} from "@/lib/campaigns/texts";

type Errors = Partial<Record<keyof CampaignFormValues | "_", string>>;
const STEPS = ["Event Details", "Additional Settings"] as const;
const isStep1 = (k: string) => (STEP1_FIELDS as readonly string[]).includes(k);

const noSubscription = () => () => {};

/** A stored instant (ISO) as the datetime-local value in the event's zone; wall-clock values pass. */
function toFormTime(value: string, zone: string): string {
  if (!value || !/[zZ]|[+-]\d\d:\d\d$/.test(value)) return value;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? "" : toWallClock(d.getTime(), zone);
}

export function CreateEventForm({ drafts: initialDrafts }: { drafts: DraftView[] }) {
  const { createCampaignAction, deleteDraftAction, saveDraftAction } = useServerActions();
  const router = useRouter();
  const [values, setValues] = useState<CampaignFormValues>(emptyCampaignForm);
  const [review, setReview] = useState<CreateCampaignInput | null>(null);
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [draftId, setDraftId] = useState<string | null>(null);
  const [drafts, setDrafts] = useState(initialDrafts);
  const [busy, startTransition] = useTransition();
  // A draft remembers its pact type only once the creator has seen step 2, so loading it reopens there.
  const [reachedSettings, setReachedSettings] = useState(false);

  // The event's zone is the browser's until one is chosen (read after hydration: the server cannot know it).
  const browserZone = useSyncExternalStore(noSubscription, localTimeZone, () => "UTC");
  const zone = values.timeZone || browserZone;

  // Times travel as wall-clock values with their zone; the schema reads them in that zone.
  const payload = (): CampaignFormValues => ({ ...values, timeZone: zone });

  const set = <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    // SPEC §5: a step's error clears when its field is edited.
    setErrors((e) => {
      if (!e[key]) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });
  };

  const validate = (onlyStep1: boolean): Errors => {
    const r = createCampaignSchema().safeParse(payload());
    if (r.success) return {};
    const all = fieldErrorsOf(r.error);
    return onlyStep1 ? Object.fromEntries(Object.entries(all).filter(([k]) => isStep1(k))) : all;
  };

  const showErrors = (found: Errors) => {
    setErrors(found);
    if (Object.keys(found).some(isStep1)) setStep(0);
    else if (Object.keys(found).length) setStep(1);
  };

  const next = () => {
    setNotice(null);
    const found = validate(true);
    setErrors(found);
    if (Object.keys(found).length === 0) {
      setStep(1);
      setReachedSettings(true);
    }
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (step === 0) return next();
    setNotice(null);
    const found = validate(false);
    if (Object.keys(found).length) return showErrors(found);
    const parsed = createCampaignSchema().safeParse(payload());
    if (parsed.success) setReview(parsed.data);
  };

  const publish = () => {
    startTransition(async () => {
      try {
        const result = await createCampaignAction(payload(), draftId);
        if (result.ok) {
          router.push(`/campaign/${result.data.id}`);
          return;
        }
        setReview(null);
        if (result.fieldErrors && Object.keys(result.fieldErrors).some((k) => k !== "_"))
          showErrors(result.fieldErrors);
        setNotice({ tone: "error", text: result.error || CREATE_ERROR });
      } catch {
        setReview(null);
        setNotice({ tone: "error", text: CREATE_ERROR });
      }
    });
  };

  const saveDraft = () => {
    setNotice(null);
    const input = { ...payload(), id: draftId, pactType: reachedSettings ? values.pactType : null };
    const parsed = draftSchema.safeParse(input);
    if (!parsed.success) {
      const found = fieldErrorsOf(parsed.error);
      const message = found._ ?? Object.values(found)[0] ?? DRAFT_SAVE_ERROR;
      if (!found._) showErrors(found);
      setNotice({ tone: "error", text: message });
      return;
    }
    startTransition(async () => {
      try {
        const result = await saveDraftAction(input);
        if (!result.ok) {
          setNotice({ tone: "error", text: result.error || DRAFT_SAVE_ERROR });
          return;
        }
        const id = result.data.id;
        setDraftId(id);
        const view: DraftView = {
          id,
          title: values.title.trim() || null,
          description: values.description.trim() || null,
          goal: /^\d+$/.test(values.goal.trim()) ? Number(values.goal.trim()) : null,
          updatedAt: new Date().toISOString(),
          hasPactType: reachedSettings,
          values: payload(),
        };
        setDrafts((list) => [view, ...list.filter((d) => d.id !== id)]);
        setNotice({ tone: "ok", text: DRAFT_SAVED });
      } catch {
        setNotice({ tone: "error", text: DRAFT_SAVE_ERROR });
      }
    });
  };

  const loadDraft = (d: DraftView) => {
    const draftZone = isTimeZone(d.values.timeZone) ? d.values.timeZone : browserZone;
    setValues({
      ...d.values,
      timeZone: draftZone,
      deadline: toFormTime(d.values.deadline, draftZone),
      startsAt: toFormTime(d.values.startsAt, draftZone),
      endsAt: toFormTime(d.values.endsAt, draftZone),
    });
    setDraftId(d.id);
    setErrors({});
    setNotice(null);
    // SPEC §2: a draft with a pact type opens the second step.
    setStep(d.hasPactType ? 1 : 0);
    setReachedSettings(d.hasPactType);
  };

  const removeDraft = (d: DraftView) => {
    if (!window.confirm(DRAFT_DELETE_CONFIRM)) return;
    setNotice(null);
    startTransition(async () => {
      try {
        const result = await deleteDraftAction(d.id);
        if (!result.ok) {
          setNotice({ tone: "error", text: DRAFT_DELETE_ERROR });
          return;
        }
        setDrafts((list) => list.filter((x) => x.id !== d.id));
        if (draftId === d.id) setDraftId(null);
      } catch {
        setNotice({ tone: "error", text: DRAFT_DELETE_ERROR });
      }
    });
  };

  const err = (k: keyof CampaignFormValues) => errors[k];

  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="order-2 lg:order-1">
        <form
          onSubmit={submit}
          noValidate
          className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
        >
          <ol aria-label="Steps" className="mb-6 flex gap-2">
            {STEPS.map((name, i) => (
              <li
                key={name}
                aria-current={i === step ? "step" : undefined}
                className="flex flex-1 flex-col gap-2"
              >
                <span className={`h-1.5 rounded-full ${i <= step ? "bg-brand-600" : "bg-slate-200"}`} />
                <span className={`text-sm font-semibold ${i === step ? "text-brand-700" : "text-slate-500"}`}>
                  Step {i + 1}: {name}
                </span>
              </li>
            ))}
          </ol>

          {step === 0 ? (
            <fieldset className="space-y-5">
              <legend className="mb-4 text-xl font-bold text-slate-900">Event Details</legend>
              <Field id="title" label="Title" error={err("title")} hint={`5 to ${TITLE_MAX} characters`}>
                <Input
                  id="title"
                  value={values.title}
                  onChange={(e) => set("title", e.target.value)}
                  invalid={!!err("title")}
                  maxLength={TITLE_MAX + 20}
                  placeholder="Board game night at the library"
                />
              </Field>
              <Field
                id="description"
                label="Description"
                error={err("description")}
                hint={`20 to ${DESCRIPTION_MAX} characters`}
              >
                <Textarea
                  id="description"
                  rows={5}
                  value={values.description}
                  onChange={(e) => set("description", e.target.value)}
                  invalid={!!err("description")}
                  placeholder="What is it, who is it for, and why does it need a minimum number of people?"
                />
              </Field>
              <div className="grid gap-5 sm:grid-cols-2">
                <Field
                  id="goal"
                  label="Goal (minimum attendees)"
                  error={err("goal")}
                  hint={`1 to ${GOAL_MAX.toLocaleString("en-US")} people`}
                >
                  <Input
                    id="goal"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={GOAL_MAX}
                    step={1}
                    value={values.goal}
                    onChange={(e) => set("goal", e.target.value)}
                    invalid={!!err("goal")}
                  />
                </Field>
                <Field
                  id="ticketPrice"
                  label="Ticket Price ($)"
                  error={err("ticketPrice")}
                  hint={describePrice(values.ticketPrice) ?? "0 or empty for a free event"}
                >
                  <Input
                    id="ticketPrice"
                    type="text"
                    inputMode="decimal"
                    autoComplete="off"
                    value={values.ticketPrice}
                    onChange={(e) => set("ticketPrice", e.target.value)}
                    invalid={!!err("ticketPrice")}
                    placeholder="0.00"
                  />
                </Field>
              </div>
              <Field
                id="deadline"
                label="Deadline"
                error={err("deadline")}
                hint={
                  <>
                    {zonedHint(values.deadline, zone) ?? "Between 24 hours and 1 year from now"}
                    {" · "}times in {zone.replace(/_/g, " ")} (change on step 2)
                  </>
                }
              >
                <Input
                  id="deadline"
                  type="datetime-local"
                  value={values.deadline}
                  onChange={(e) => set("deadline", e.target.value)}
                  invalid={!!err("deadline")}
                />
              </Field>
              <Field
                id="logisticalDetails"
                label="Logistical Details (optional)"
                error={err("logisticalDetails")}
                hint={`Where, when, what to bring. Up to ${LOGISTICS_MAX} characters`}
              >
                <Textarea
                  id="logisticalDetails"
                  rows={3}
                  value={values.logisticalDetails}
                  onChange={(e) => set("logisticalDetails", e.target.value)}
                  invalid={!!err("logisticalDetails")}
                />
              </Field>
            </fieldset>
          ) : (
            <SettingsStep values={{ ...values, timeZone: zone }} set={set} err={err} />
          )}

          {notice && (
            <p
              role={notice.tone === "error" ? "alert" : "status"}
              className={`mt-6 rounded-lg px-4 py-3 text-sm ${notice.tone === "error" ? "bg-red-50 text-red-700" : "bg-emerald-50 text-emerald-800"}`}
            >
              {notice.text}
            </p>
          )}

          <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
            <div>
              {step === 1 && (
                <Button
                  variant="secondary"
                  onClick={() => setStep(0)}
                  disabled={busy}
                  className="w-full sm:w-auto"
                >
                  Back
                </Button>
              )}
            </div>
            <div className="flex flex-col-reverse gap-3 sm:flex-row">
              <Button variant="secondary" onClick={saveDraft} disabled={busy}>
                Save Draft
              </Button>
              {step === 0 ? (
                <Button type="submit" disabled={busy}>
                  Next
                </Button>
              ) : (
                <Button type="submit" disabled={busy}>
                  Create Event
                </Button>
              )}
            </div>
          </div>
        </form>
      </div>
      {review && (
        <ReviewDialog event={review} busy={busy} onConfirm={publish} onClose={() => setReview(null)} />
      )}
      <div className="order-1 lg:order-2">
        <DraftsPanel
          drafts={drafts}
          activeId={draftId}
          busy={busy}
          onLoad={loadDraft}
          onDelete={removeDraft}
        />
      </div>
    </div>
  );
}

function Toggle({
  id,
  label,
  description,
  checked,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  description?: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-1 h-5 w-5 rounded border-slate-300 accent-brand-600"
      />
      <label htmlFor={id} className="text-sm">
        <span className="block font-semibold text-slate-800">{label}</span>
        {description && <span className="text-slate-600">{description}</span>}
      </label>
    </div>
  );
}

function SettingsStep({
  values,
  set,
  err,
}: {
  values: CampaignFormValues;
  set: <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) => void;
  err: (k: keyof CampaignFormValues) => string | undefined;
}) {
  return (
    <fieldset className="space-y-6">
      <legend className="mb-4 text-xl font-bold text-slate-900">Additional Settings</legend>

      <TimePlaceFields values={values} set={set} err={err} />

      <div role="radiogroup" aria-labelledby="pactType-label" className="space-y-2">
        <p id="pactType-label" className="text-sm font-semibold text-slate-800">
          Pact type
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          {(
            [
              ["paction", "Paction", "Counts participants: the event happens when enough people commit."],
              [
                "crowdfund",
                "Crowdfund",
                "Counts dollars raised; backers pay you through your payment handle.",
              ],
            ] as const
          ).map(([value, label, text]) => (
            <label
              key={value}
              className={`cursor-pointer rounded-lg border p-3 ${values.pactType === value ? "border-brand-600 bg-brand-50" : "border-slate-300"}`}
            >
              <input
                type="radio"
                name="pactType"
                value={value}
                checked={values.pactType === value}
                onChange={() => set("pactType", value)}
                className="mr-2 accent-brand-600"
              />
              <span className="font-semibold">{label}</span>
              <span className="mt-1 block text-xs text-slate-600">{text}</span>
            </label>
          ))}
        </div>
      </div>

      {values.pactType === "crowdfund" && (
        <div className="grid gap-5 rounded-lg bg-slate-50 p-4 sm:grid-cols-2">
          <Field id="paymentType" label="Payment type" error={err("paymentType")}>
            <select
              id="paymentType"
              className={inputClass}
              value={values.paymentType}
              onChange={(e) => set("paymentType", e.target.value as CampaignFormValues["paymentType"])}
              aria-invalid={!!err("paymentType") || undefined}
            >
              <option value="">Choose…</option>
              <option value="venmo">Venmo</option>
              <option value="paypal">PayPal</option>
              <option value="other">Other</option>
            </select>
          </Field>
          <Field
            id="paymentMethod"
            label="Payment handle"
            error={err("paymentMethod")}
            hint={values.paymentType === "venmo" ? "Your Venmo username" : "Where backers send money"}
          >
            <Input
              id="paymentMethod"
              value={values.paymentMethod}
              onChange={(e) => set("paymentMethod", e.target.value)}
              invalid={!!err("paymentMethod")}
            />
          </Field>
        </div>
      )}

      <div className="space-y-3 rounded-lg border border-slate-200 p-4">
        <Toggle
          id="attendeesAnonymous"
          label="Anonymous attendees"
          description="Attendees appear as Anonymous Attendee #n to other visitors. This cannot be changed after the event is created."
          checked={values.attendeesAnonymous}
          onChange={(v) => set("attendeesAnonymous", v)}
        />
        {values.attendeesAnonymous ? (
          <Field id="identityRevelationType" label="Reveal identities">
            <select
              id="identityRevelationType"
              className={inputClass}
              value={values.identityRevelationType}
              onChange={(e) =>
                set("identityRevelationType", e.target.value as CampaignFormValues["identityRevelationType"])
              }
            >
              <option value="never">Never</option>
              <option value="onStart">When the event starts (at the deadline when no start is set)</option>
              <option value="immediate">As soon as the threshold is met</option>
            </select>
          </Field>
        ) : (
          <p className="text-sm text-slate-600">Attendee names are shown once the threshold is met.</p>
        )}
      </div>

      {/* issue 31: the organizer's own promise (no money moves for it), on paid events only, 1–20% */}
      <div className="space-y-3 rounded-lg border border-slate-200 p-4">
        <Toggle
          id="refundBonusEnabled"
          label={REFUND_BONUS_TEXTS.formLabel}
          description={formIsPaid(values) ? REFUND_BONUS_TEXTS.formDescription : REFUND_BONUS_TEXTS.freeHint}
          checked={values.refundBonusEnabled}
          // a free event offers none; one ticked before the price was cleared can still be unticked
          disabled={!formIsPaid(values) && !values.refundBonusEnabled}
          onChange={(v) => set("refundBonusEnabled", v)}
        />
        {values.refundBonusEnabled && (
          <Field
            id="refundBonusPercentage"
            label="Refund bonus (%)"
            error={err("refundBonusPercentage")}
            hint={REFUND_BONUS_TEXTS.formHint}
          >
            <Input
              id="refundBonusPercentage"
              type="number"
              min={REFUND_BONUS_MIN}
              max={REFUND_BONUS_MAX}
              step={1}
              value={values.refundBonusPercentage}
              onChange={(e) => set("refundBonusPercentage", e.target.value)}
              invalid={!!err("refundBonusPercentage")}
            />
          </Field>
        )}
      </div>

      <div className="rounded-lg border border-slate-200 p-4">
        <Toggle
          id="acceptAfterThreshold"
          label="Keep accepting commitments after the threshold"
          description="Off: commitments close once the goal is reached. On: people can still join afterwards and are charged right away."
          checked={values.acceptAfterThreshold}
          onChange={(v) => set("acceptAfterThreshold", v)}
        />
      </div>

      {values.pactType !== "crowdfund" && (
        <div className="rounded-lg border border-slate-200 p-4">
          <Toggle
            id="earlyGoAhead"
            label="May go ahead from 80% of the goal"
            description="Near misses happen. If you opt in, backers are told before they commit, and once 80% of the goal is reached you may confirm the event yourself; everyone in is then charged as if the goal were met."
            checked={values.earlyGoAhead}
            onChange={(v) => set("earlyGoAhead", v)}
          />
        </div>
      )}

      {values.pactType !== "crowdfund" && (
        <div className="rounded-lg border border-slate-200 p-4">
          <Field
            id="capacity"
            label="Capacity (optional)"
            error={err("capacity")}
            hint="The most people who can attend, at least the goal. Once it is reached, new people join a waitlist in order; when a place opens, the first in line gets it and is charged automatically. Empty: no limit."
          >
            <Input
              id="capacity"
              type="number"
              inputMode="numeric"
              min={1}
              max={GOAL_MAX}
              step={1}
              value={values.capacity}
              onChange={(e) => set("capacity", e.target.value)}
              invalid={!!err("capacity")}
            />
          </Field>
        </div>
      )}

      <div className="rounded-lg border border-slate-200 p-4">
        <Toggle
          id="isTest"
          label="Test event"
          description="Marked TEST and removable by admins from the dashboard."
          checked={values.isTest}
          onChange={(v) => set("isTest", v)}
        />
      </div>
    </fieldset>
  );
}
