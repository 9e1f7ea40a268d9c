"use client";

import { EventField, type FieldError, type SetField } from "@/components/campaigns/event-field";
import type { CampaignFormValues } from "@/lib/campaigns/schema";
import { DEPOSIT_TEXTS, formDepositRefusal, readDepositValues } from "@/lib/campaigns/deposit-fields";
import { formatCents } from "@/lib/format";

/**
 * The show-up deposit on the create and the edit form (issue 36 item 3): opt in, an amount and a
 * grace. Off, with its one-line reason, on an event without a start time or an in-person place
 * (lib/events/deposit depositAllowed); read-only on the edit form once someone committed. The server
 * (lib/campaigns/deposit-fields readDeposit) decides again.
 */
export function DepositSection({
  values,
  set,
  err,
  pactType,
  form = "create",
  locked = false,
}: {
  values: CampaignFormValues;
  set: SetField;
  err: FieldError;
  pactType: string | null;
  form?: "create" | "edit";
  /** the edit form once someone has committed */
  locked?: boolean;
}) {
  const field = { values, set, err, form };
  const refusal = formDepositRefusal({ ...values, pactType });
  const reading = readDepositValues(values);
  const amount =
    reading.ok && reading.depositCents > 0 ? `${formatCents(reading.depositCents)} per person` : null;
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 p-4" data-testid="deposit-section">
      <EventField
        name="depositEnabled"
        {...field}
        // without a start time or a place it cannot be ticked; one ticked before can still be unticked
        disabled={locked || (refusal !== null && !values.depositEnabled)}
      />
      {locked ? (
        <p className="text-sm text-slate-600">{DEPOSIT_TEXTS.lockedHint}</p>
      ) : (
        refusal && (
          <p className="text-sm text-amber-800" data-testid="deposit-refusal">
            {refusal}
          </p>
        )
      )}
      {values.depositEnabled && (
        <div className="grid gap-5 sm:grid-cols-2">
          <EventField
            name="depositAmount"
            {...field}
            readOnly={locked}
            // locked: the section says why once, above
            hint={locked ? "" : (amount ?? undefined)}
          />
          <EventField name="depositGraceHours" {...field} readOnly={locked} hint={locked ? "" : undefined} />
        </div>
      )}
    </div>
  );
}
