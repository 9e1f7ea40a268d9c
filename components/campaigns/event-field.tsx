"use client";

import type { ComponentProps, ReactNode } from "react";
import { Field, Input, Textarea, inputClass } from "@/components/ui/field";
import { describePrice } from "@/lib/campaigns/fields";
import { formatInZone, fromWallClock } from "@/lib/campaigns/event-time";
import type { FieldUi, InputKind } from "@/lib/campaigns/event-field-kit";
import {
  TEXT_COLUMNS,
  eventField,
  type CampaignFormValues,
  type EventFieldName,
} from "@/lib/campaigns/schema";

export type SetField = <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) => void;
export type FieldError = (k: keyof CampaignFormValues) => string | undefined;

/** What a wall-clock value means in the chosen zone, under its input: "Tue, Dec 1, 2026, 7:00 PM EST". */
export function zonedHint(wall: string, zone: string): string | undefined {
  if (!wall || !zone) return undefined;
  const r = fromWallClock(wall, zone);
  return r.ok ? formatInZone(r.date, zone) : undefined;
}

/** The input attributes each kind of field starts from (the field's own `attrs` add to them). */
const KIND_ATTRS: Partial<Record<InputKind, ComponentProps<"input">>> = {
  number: { type: "number" },
  price: { type: "text", inputMode: "decimal", autoComplete: "off" },
  datetime: { type: "datetime-local" },
  url: { type: "url", inputMode: "url" },
};

/**
 * One of the event's fields (lib/campaigns/event-fields.ts) as the create and edit forms draw it:
 * its label, hint and input from the definition (`form="edit"` takes the edit form's look). What
 * depends on the moment is passed in: read-only when a rule locks it, a hint that says why.
 */
export function EventField({
  name,
  values,
  set,
  err,
  form = "create",
  readOnly,
  disabled,
  hint: hintNow,
  max,
  options,
}: {
  name: EventFieldName;
  values: CampaignFormValues;
  set: SetField;
  err: FieldError;
  form?: "create" | "edit";
  readOnly?: boolean;
  disabled?: boolean;
  /** replaces the definition's hint (and what the field says as you type) */
  hint?: ReactNode;
  /** a datetime's latest value */
  max?: string;
  /** a select's choices when they are not fixed (the time zones) */
  options?: FieldUi["options"];
}) {
  const def = eventField(name);
  const ui: FieldUi = form === "edit" ? { ...def.ui, ...def.edit?.ui } : def.ui;
  const value = values[name];
  const error = err(name);
  const change = (v: string | boolean) => set(name, v as never);
  // what the field says as you type: the price it understood, a time in the event's zone
  const live =
    def.ui.kind === "price"
      ? describePrice(String(value))
      : def.ui.kind === "datetime"
        ? zonedHint(String(value), values.timeZone)
        : undefined;
  const hint = hintNow ?? live ?? ui.hint;

  if (ui.kind === "toggle")
    return (
      <Toggle
        id={name}
        label={ui.label}
        description={hint}
        checked={Boolean(value)}
        disabled={disabled}
        onChange={change}
      />
    );
  if (ui.kind === "cards") return <Cards name={name} ui={ui} value={String(value)} onChange={change} />;
  const common = {
    id: name,
    value: String(value),
    invalid: !!error,
    readOnly,
    "aria-readonly": readOnly || undefined,
    placeholder: ui.placeholder,
  };
  return (
    <Field id={name} label={ui.label} error={error} hint={hint}>
      {ui.kind === "select" ? (
        <select
          id={name}
          className={inputClass}
          value={String(value)}
          onChange={(e) => change(e.target.value)}
          aria-invalid={!!error || undefined}
        >
          {(options ?? ui.options ?? []).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      ) : ui.kind === "textarea" ? (
        <Textarea {...common} rows={ui.attrs?.rows} onChange={(e) => change(e.target.value)} />
      ) : (
        <Input
          {...KIND_ATTRS[ui.kind]}
          {...common}
          inputMode={ui.attrs?.inputMode ?? KIND_ATTRS[ui.kind]?.inputMode}
          min={ui.attrs?.min}
          max={max ?? ui.attrs?.max}
          step={ui.attrs?.step}
          maxLength={ui.attrs?.maxLength}
          onChange={(e) => change(e.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * The event's optional texts (`column: "text"` in the definition) in its order, on one step of the
 * create form or all of them on the edit form: a text added to the definition shows here.
 */
export function TextFields({
  step,
  ...field
}: {
  step?: 1 | 2;
  values: CampaignFormValues;
  set: SetField;
  err: FieldError;
  form?: "create" | "edit";
}) {
  return TEXT_COLUMNS.filter((name) => step === undefined || eventField(name).step === step).map((name) => (
    <EventField key={name} name={name} {...field} />
  ));
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
  description?: ReactNode;
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

/** A choice drawn as cards with a line each (the pact type). */
function Cards({
  name,
  ui,
  value,
  onChange,
}: {
  name: string;
  ui: FieldUi;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <div role="radiogroup" aria-labelledby={`${name}-label`} className="space-y-2">
      <p id={`${name}-label`} className="text-sm font-semibold text-slate-800">
        {ui.label}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        {(ui.options ?? []).map(([v, label, text]) => (
          <label
            key={v}
            className={`cursor-pointer rounded-lg border p-3 ${value === v ? "border-brand-600 bg-brand-50" : "border-slate-300"}`}
          >
            <input
              type="radio"
              name={name}
              value={v}
              checked={value === v}
              onChange={() => onChange(v)}
              className="mr-2 accent-brand-600"
            />
            <span className="font-semibold">{label}</span>
            <span className="mt-1 block text-xs text-slate-600">{text}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
