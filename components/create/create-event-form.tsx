"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useState, useSyncExternalStore, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { EventField, TextFields, type FieldError, type SetField } from "@/components/campaigns/event-field";
import { DraftsPanel } from "@/components/create/drafts-panel";
import { TimePlaceFields, TimeZoneField, zonedHint } from "@/components/create/time-place-fields";
import { ReviewDialog } from "@/components/create/review-dialog";
import { CoverPicker } from "@/components/create/cover-picker";
import { DepositSection } from "@/components/create/deposit-section";
import { rememberCoverFailure } from "@/components/manage/cover-upload";
import { COVER_TEXTS } from "@/lib/images/texts";
import type { PlatformFeeTerms } from "@/lib/payments/fees";
import { isTimeZone, localTimeZone, toWallClock } from "@/lib/campaigns/event-time";
import { formIsPaid } from "@/lib/campaigns/fields";
import type { DraftView } from "@/components/create/draft-view";
import {
  STEP1_FIELDS,
  createCampaignSchema,
  emptyCampaignForm,
  eventField,
  fieldErrorsOf,
  type CampaignFormValues,
  type CreateCampaignInput,
} from "@/lib/campaigns/schema";
import { draftSchema } from "@/lib/drafts/schema";
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

export function CreateEventForm({
  drafts: initialDrafts,
  fees,
}: {
  drafts: DraftView[];
  /** the platform's fee terms a new event gets (the review's "after fees") */
  fees: PlatformFeeTerms;
}) {
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
  const [cover, setCover] = useState<File | null>(null);
  const [coverError, setCoverError] = useState<string | null>(null);
  // A draft remembers its pact type only once the creator has seen step 2, so loading it reopens there.
  const [reachedSettings, setReachedSettings] = useState(false);

  // The event's zone is the browser's until one is chosen (read after hydration: the server cannot know it).
  const browserZone = useSyncExternalStore(noSubscription, localTimeZone, () => "UTC");
  const zone = values.timeZone || browserZone;

  // Times travel as wall-clock values with their zone; the schema reads them in that zone. A
  // crowdfund takes no show-up deposit (issue 36): the hidden field is not sent as ticked.
  const payload = (): CampaignFormValues => ({
    ...values,
    timeZone: zone,
    ...(values.pactType === "crowdfund" ? { depositEnabled: false } : {}),
  });

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
          const id = result.data.id;
          // the cover goes to the event's cover route once the event exists; if it does not take,
          // the manage page (where the cover control is) says why and offers it again
          const coverRefused = cover ? await uploadCover(id, cover) : null;
          if (coverRefused) rememberCoverFailure(id, coverRefused);
          router.push(coverRefused ? `/campaign/${id}/manage` : `/campaign/${id}`);
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
  const field = { values, set, err };

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
              <EventField name="title" {...field} />
              <EventField name="description" {...field} />
              <div className="grid gap-5 sm:grid-cols-2">
                <EventField name="goal" {...field} />
                <EventField name="ticketPrice" {...field} />
              </div>
              {/* issue 34 item 6: the zone first, since the deadline (checked on this step) is read in it */}
              <TimeZoneField values={{ ...values, timeZone: zone }} set={set} err={err} />
              <EventField
                name="deadline"
                {...field}
                hint={`${zonedHint(values.deadline, zone) ?? eventField("deadline").ui.hint} · times in ${zone.replace(/_/g, " ")}`}
              />
              <TextFields step={1} {...field} />
            </fieldset>
          ) : (
            <SettingsStep
              values={{ ...values, timeZone: zone }}
              set={set}
              err={err}
              cover={
                <CoverPicker file={cover} onChange={setCover} error={coverError} onError={setCoverError} />
              }
            />
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
        <ReviewDialog
          event={review}
          fees={fees}
          cover={cover?.name ?? null}
          busy={busy}
          onConfirm={publish}
          onClose={() => setReview(null)}
        />
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

/**
 * Sends the chosen cover to the event's cover route (the manage page's, lib/images): null when it
 * took, else the route's reason.
 */
async function uploadCover(campaignId: string, file: File): Promise<string | null> {
  try {
    const form = new FormData();
    form.set("file", file);
    const res = await fetch(`/api/campaigns/${campaignId}/cover`, { method: "POST", body: form });
    if (res.ok) return null;
    const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    return data?.error?.message ?? COVER_TEXTS.notImage;
  } catch {
    return "The upload did not go through.";
  }
}

function SettingsStep({
  values,
  set,
  err,
  cover,
}: {
  values: CampaignFormValues;
  set: SetField;
  err: FieldError;
  cover: React.ReactNode;
}) {
  const field = { values, set, err };
  return (
    <fieldset className="space-y-6">
      <legend className="mb-4 text-xl font-bold text-slate-900">Additional Settings</legend>

      <TimePlaceFields values={values} set={set} err={err} withZone={false} />
      {cover}
      <TextFields step={2} {...field} />

      <EventField name="pactType" {...field} />

      {values.pactType === "crowdfund" && (
        <div className="grid gap-5 rounded-lg bg-slate-50 p-4 sm:grid-cols-2">
          <EventField name="paymentType" {...field} />
          <EventField
            name="paymentMethod"
            {...field}
            hint={values.paymentType === "venmo" ? "Your Venmo username" : undefined}
          />
        </div>
      )}

      <div className="space-y-3 rounded-lg border border-slate-200 p-4">
        <EventField name="attendeesAnonymous" {...field} />
        {values.attendeesAnonymous ? (
          <EventField name="identityRevelationType" {...field} />
        ) : (
          <p className="text-sm text-slate-600">Attendee names are shown once the threshold is met.</p>
        )}
      </div>

      {/* issue 31: the organizer's own promise (no money moves for it), on paid events only, 1–20% */}
      <div className="space-y-3 rounded-lg border border-slate-200 p-4">
        <EventField
          name="refundBonusEnabled"
          {...field}
          hint={formIsPaid(values) ? undefined : REFUND_BONUS_TEXTS.freeHint}
          // a free event offers none; one ticked before the price was cleared can still be unticked
          disabled={!formIsPaid(values) && !values.refundBonusEnabled}
        />
        {values.refundBonusEnabled && <EventField name="refundBonusPercentage" {...field} />}
      </div>

      {/* issue 36: the show-up deposit, for a paction with a start time and an in-person place */}
      {values.pactType !== "crowdfund" && <DepositSection {...field} pactType={values.pactType} />}

      <div className="rounded-lg border border-slate-200 p-4">
        <EventField name="acceptAfterThreshold" {...field} />
      </div>

      {values.pactType !== "crowdfund" && (
        <div className="rounded-lg border border-slate-200 p-4">
          <EventField name="earlyGoAhead" {...field} />
        </div>
      )}

      {values.pactType !== "crowdfund" && (
        <div className="rounded-lg border border-slate-200 p-4">
          <EventField name="capacity" {...field} />
        </div>
      )}

      {/* issue 37: people per commitment — free and paid pactions, with a show-up deposit too (lib/events/seats) */}
      {values.pactType !== "crowdfund" && (
        <div className="rounded-lg border border-slate-200 p-4">
          <EventField name="maxSeats" {...field} />
        </div>
      )}

      <div className="rounded-lg border border-slate-200 p-4">
        <EventField name="isTest" {...field} />
      </div>
    </fieldset>
  );
}
