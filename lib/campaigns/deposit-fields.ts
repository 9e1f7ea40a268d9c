import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { optionalText, readPrice } from "@/lib/campaigns/fields";
import { toggle, type FieldDef } from "@/lib/campaigns/event-field-kit";
import { isCrowdfund } from "@/lib/events/lifecycle";
import {
  DEPOSIT_GRACE_DEFAULT_HOURS,
  DEPOSIT_GRACE_MAX_HOURS,
  DEPOSIT_MAX_CENTS,
  depositAllowed,
} from "@/lib/events/deposit";

/*
 * Issue 36 item 3: the show-up deposit as the create and edit forms ask for it — opt in, an amount in
 * dollars ($1–$500, stored as cents in Campaign.depositCents) and a grace after the end in hours
 * (Campaign.depositGraceHours). Which events may take one is lib/events/deposit's rule
 * (depositAllowed); this file reads the form's three fields into the two columns, or says why not.
 * The rules are recorded in docs/decisions/show-up-deposit.md ("The create form").
 */

export const DEPOSIT_MIN_CENTS = 100;

export const DEPOSIT_TEXTS = {
  label: "Show-up deposit",
  /** what the organizer agrees to (issue 36: the form says the provider's fee is theirs) */
  explain:
    "Each person pays a deposit with their place when the event is confirmed. It is refunded when they check in at the door. Those who do not show keep it forfeited once the event has ended and the grace has passed; it then goes to your payout, less the platform fee. The payment provider does not return its fee on a refunded deposit: that fee is yours to bear.",
  amountLabel: "Deposit per person ($)",
  amountHint: "$1 to $500",
  graceLabel: "Grace after the end (hours)",
  graceHint: `1 to ${DEPOSIT_GRACE_MAX_HOURS} hours. Within it you may excuse someone, which refunds them.`,
  /** why the field is off (and the server's refusal) */
  notAllowed: "A show-up deposit needs a start time and an in-person place (a venue or an address).",
  crowdfund: "A crowdfund takes no show-up deposit.",
  amountRange: "The deposit must be between $1 and $500.",
  graceRange: `The grace must be a whole number of hours from 1 to ${DEPOSIT_GRACE_MAX_HOURS}.`,
  locked: "The show-up deposit is fixed once someone has committed.",
  /** the edit form, read-only */
  lockedHint: "Fixed once someone has committed.",
} as const;

/** The three fields, spread into the event's field list (lib/campaigns/event-fields.ts). */
export const DEPOSIT_FIELDS = {
  depositEnabled: {
    ...toggle(false, DEPOSIT_TEXTS.label, DEPOSIT_TEXTS.explain),
    // absent (an older form) keeps the stored deposit
    edit: { parse: () => z.boolean().optional(), lockedBy: "money" },
  },
  depositAmount: {
    empty: "",
    step: 2,
    ui: {
      kind: "text",
      label: DEPOSIT_TEXTS.amountLabel,
      hint: DEPOSIT_TEXTS.amountHint,
      placeholder: "10.00",
      attrs: { inputMode: "decimal", maxLength: 12 },
    },
    create: () => optionalText,
    draft: optionalText,
    edit: { parse: () => optionalText, lockedBy: "money" },
  },
  depositGraceHours: {
    empty: String(DEPOSIT_GRACE_DEFAULT_HOURS),
    step: 2,
    ui: {
      kind: "text",
      label: DEPOSIT_TEXTS.graceLabel,
      hint: DEPOSIT_TEXTS.graceHint,
      attrs: { inputMode: "numeric", maxLength: 4 },
    },
    create: () => optionalText,
    draft: optionalText,
    edit: { parse: () => optionalText, lockedBy: "money" },
  },
} satisfies Record<string, FieldDef>;

export type DepositForm = { depositEnabled: boolean; depositAmount: string; depositGraceHours: string };
export type DepositColumns = { depositCents: number; depositGraceHours: number };
type Reading = ({ ok: true } & DepositColumns) | { ok: false; field: keyof DepositForm; message: string };

/** The amount and grace as typed, to the columns (no event rule): what a draft keeps too. */
export function readDepositValues(v: DepositForm): Reading {
  if (!v.depositEnabled) return { ok: true, depositCents: 0, depositGraceHours: DEPOSIT_GRACE_DEFAULT_HOURS };
  const price = readPrice(v.depositAmount);
  if (!price.ok || price.cents < DEPOSIT_MIN_CENTS || price.cents > DEPOSIT_MAX_CENTS)
    return { ok: false, field: "depositAmount", message: DEPOSIT_TEXTS.amountRange };
  const raw = v.depositGraceHours.trim() || String(DEPOSIT_GRACE_DEFAULT_HOURS);
  const hours = Number(raw);
  if (!/^\d+$/.test(raw) || hours < 1 || hours > DEPOSIT_GRACE_MAX_HOURS)
    return { ok: false, field: "depositGraceHours", message: DEPOSIT_TEXTS.graceRange };
  return { ok: true, depositCents: price.cents, depositGraceHours: hours };
}

/** Why this event cannot take a deposit now, or null when it can (the form's one-line reason too). */
export function depositRefusal(e: {
  pactType?: string | null;
  startsAt: Date | null;
  venue: string | null;
  address: string | null;
}): string | null {
  if (isCrowdfund(e)) return DEPOSIT_TEXTS.crowdfund;
  return depositAllowed(e) ? null : DEPOSIT_TEXTS.notAllowed;
}

/** depositRefusal on the form's values as typed (a start time given, a venue or an address). */
export const formDepositRefusal = (v: {
  pactType?: string | null;
  startsAt: string;
  venue: string;
  address: string;
}) =>
  depositRefusal({
    pactType: v.pactType,
    startsAt: v.startsAt.trim() ? new Date(0) : null,
    venue: v.venue,
    address: v.address,
  });

/**
 * The deposit of a new or edited event: read from the form and checked against the event it is for
 * (a paction with a start time and an in-person place). A refusal names the field it belongs to.
 */
export function readDeposit(
  v: DepositForm,
  e: { pactType?: string | null; startsAt: Date | null; venue: string | null; address: string | null },
): Reading {
  const r = readDepositValues(v);
  if (!r.ok || r.depositCents === 0) return r;
  const refusal = depositRefusal(e);
  return refusal ? { ok: false, field: "depositEnabled", message: refusal } : r;
}

/** A stored deposit as the form holds it (the edit form, a draft). */
export const depositFormValues = (c: DepositColumns): DepositForm => ({
  depositEnabled: c.depositCents > 0,
  depositAmount: c.depositCents > 0 ? centsToDollars(c.depositCents) : "",
  depositGraceHours: String(c.depositGraceHours),
});

const centsToDollars = (cents: number) =>
  cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
