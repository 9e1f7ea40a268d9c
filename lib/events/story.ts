import { formatCents, plural } from "@/lib/format";
import { STANDING_BADGES, type Standing, type Tone } from "@/lib/events/standing";

/**
 * The one story of a commitment (issue 32): every surface — My commitments and the event page's own
 * card, the manage page, its CSV, the pay page — tells it from the same facts: the standing, the
 * charge state and the money. Where the surfaces used to disagree, the money decides: a refund is
 * "refunded" only once it went through, a charge given back is "refund pending" until then.
 */
export type CommitmentFacts = {
  standing: Standing;
  chargeStatus: "none" | "processing" | "succeeded" | "failed" | "requires_action" | "refunded";
  charged: boolean;
  /** the event takes money */
  paid: boolean;
  /** what the commitment was (or is to be) charged */
  cents: number;
  /** a failed payment's phase (lib/ledger/payment-window recoveryPhase) */
  recovery: "retrying" | "awaiting_card" | "dropped" | null;
  failureCode: string | null;
  /** took a place that opened on the waitlist */
  promoted: boolean;
  verified: boolean;
  minPeople: number | null;
  /** the commitment's refund by its money rows (lib/ledger refundState): refunded only once it went through */
  refund: "none" | "pending" | "refunded";
  /** the event was cancelled: every charge is owed back */
  eventCancelled: boolean;
  /** waiting: the place in line; paused when a promotion's charge was declined */
  waitlist: { position: number | null; paused: boolean } | null;
};

/** Where the money of a commitment is: never taken, taken and kept, owed back, given back. */
export type MoneyState = "none" | "charged" | "owed" | "refunded";

export function moneyOf(
  f: Pick<CommitmentFacts, "standing" | "chargeStatus" | "paid" | "cents" | "refund" | "eventCancelled">,
): MoneyState {
  if (f.refund === "refunded" || f.chargeStatus === "refunded") return "refunded";
  if (f.chargeStatus !== "succeeded" || !f.paid || f.cents <= 0) return "none";
  // charged, and given back or to be: withdrawn, given up, dropped, or the event was cancelled
  return f.standing === "in" && f.refund !== "pending" && !f.eventCancelled ? "charged" : "owed";
}

export type OrganizerStory = { label: string; tone: Tone; note: string | null };

const MONEY_SUFFIX: Record<MoneyState, string> = {
  none: "",
  charged: "",
  owed: ", refund pending",
  refunded: ", refunded",
};

/** The commitment in the organizer's words: the manage page's badge (with its note) and the CSV's status. */
export function organizerStory(f: CommitmentFacts): OrganizerStory {
  const money = moneyOf(f);
  const { label, tone } = STANDING_BADGES[f.standing];
  switch (f.standing) {
    case "waiting": {
      const paused = f.waitlist?.paused ?? false;
      return {
        label: `Waitlisted #${f.waitlist?.position ?? "?"}`,
        tone: paused ? "red" : "amber",
        note: paused ? "card declined, awaiting a new one" : null,
      };
    }
    case "conditional":
      return { label: `Counts when ${f.minPeople} are in`, tone, note: "not counted yet" };
    case "released":
      return { label: "Condition not met, released", tone, note: "not charged" };
    case "waitlist_closed":
      return { label, tone, note: "not charged" };
    case "gave_up":
      return {
        label: label + MONEY_SUFFIX[money],
        tone,
        note: money === "owed" ? "refund once the place is paid for" : null,
      };
    case "dropped":
      return {
        label: money === "none" ? "Dropped, not paid" : label + MONEY_SUFFIX[money],
        tone,
        note: null,
      };
    case "withdrawn":
      return { label: label + MONEY_SUFFIX[money], tone, note: null };
    case "in":
      return chargeStory(f, money);
  }
}

/** One word for where a commitment's money is, on every surface (issue 34.5; the glossary's table). */
export const MONEY_WORDS = {
  refunded: "Refunded",
  owed: "Refund pending",
  charged: "Paid",
  requires_action: "Authentication needed",
  failed: "Payment failed",
  processing: "Charging",
  none: "Not charged",
} as const;

function chargeStory(f: CommitmentFacts, money: MoneyState): OrganizerStory {
  if (money === "refunded") return { label: MONEY_WORDS.refunded, tone: "slate", note: null };
  if (money === "owed") return { label: MONEY_WORDS.owed, tone: "slate", note: null };
  // a free event's confirmation marks its seats "charged" with no money: never "Paid" there
  if (f.charged && f.paid)
    return {
      label: f.promoted ? `${MONEY_WORDS.charged}, from waitlist` : MONEY_WORDS.charged,
      tone: "green",
      note: null,
    };
  if (f.chargeStatus === "processing") return { label: MONEY_WORDS.processing, tone: "brand", note: null };
  if (f.chargeStatus === "requires_action")
    return { label: MONEY_WORDS.requires_action, tone: "red", note: "authentication_required" };
  if (f.chargeStatus === "failed")
    return f.recovery === "retrying"
      ? { label: `${MONEY_WORDS.failed}, will retry`, tone: "amber", note: f.failureCode }
      : { label: MONEY_WORDS.failed, tone: "red", note: f.failureCode };
  // SPEC §2's words for a commitment not charged: VERIFIED (confirmed) or PENDING
  return f.verified
    ? { label: "VERIFIED", tone: "green", note: null }
    : { label: "PENDING", tone: "amber", note: null };
}

/** The CSV's status cell: the manage page's badge and its note. */
export const organizerStatusText = (s: OrganizerStory) => (s.note ? `${s.label} (${s.note})` : s.label);

export type BackerState =
  | "waiting"
  | "confirmed"
  | "charged"
  | "failed"
  | "expired"
  | "cancelled"
  | "refunded"
  | "withdrawn"
  | "dropped"
  | "waitlisted";

/**
 * The money owed back or given back, in the backer's words (issue 34): "Refund of $35.00 to Visa ·4242:
 * waiting for your place to be taken", then "Refunded $35.00 to Visa ·4242" with `refundedAt` (the
 * surface shows it "on <date>" in the viewer's zone). Null when no money is owed or was given back.
 */
export type RefundLine = { text: string; refundedAt: string | null };

export type BackerStory = { state: BackerState; text: string; tone: Tone; refund: RefundLine | null };

/** What the backer's story needs beyond the commitment's facts: dates in words, the card, the refund. */
export type BackerFacts = CommitmentFacts & {
  leftOn: string;
  chargedOn: string;
  /** the card the charge was made on ("Visa ·4242"); null: not known */
  card?: string | null;
  /** when the refund went through (the pledge's own column, written with its money row) */
  refundedAt?: Date | null;
  /** a given-up place: whoever took it has paid (the giver's refund is due now) */
  placeTakenAndPaid?: boolean;
};

/** "Counts when 8 are in · 6 are in now": a conditional commitment's place, said once (issue 34). */
export const conditionText = (minPeople: number, members: number) =>
  `Counts when ${minPeople} are in · ${plural(members, "is in now", "are in now")}`;

/** The refund of a commitment in the backer's words, from the money (moneyOf) and the handover. */
export function refundLine(f: BackerFacts): RefundLine | null {
  const money = moneyOf(f);
  const to = `${formatCents(f.cents)} to ${f.card ?? "your card"}`;
  if (money === "refunded")
    return { text: `Refunded ${to}`, refundedAt: f.refundedAt ? f.refundedAt.toISOString() : null };
  if (money !== "owed") return null;
  const waitingForTaker = f.standing === "gave_up" && f.refund === "none" && !f.placeTakenAndPaid;
  return {
    text: `Refund of ${to}: ${waitingForTaker ? "waiting for your place to be taken" : "on its way"}`,
    refundedAt: null,
  };
}

/** The event as the backer's story needs it (lib/pledges/mine.ts asks the campaign core for it). */
export type EventFacts = {
  phase: "collecting" | "confirmed" | "expired" | "cancelled";
  committedCount: number;
  /** "4 more people" / "$120 more" while collecting */
  stillNeeded: string;
};

/** The commitment in the backer's words (My commitments, the event page's own card). */
export function backerStory(f: BackerFacts, e: EventFacts): BackerStory {
  const refund = refundLine(f);
  return { ...storyOf(f, e, refund === null), refund };
}

/** The story's sentence; `never`: no money was taken, so the sentence says "never charged". */
function storyOf(f: BackerFacts, e: EventFacts, never: boolean): Omit<BackerStory, "refund"> {
  const on = f.leftOn;
  // the money, when there is any, is the refund line's (refundLine): the sentence says only what happened
  const neverCharged = never ? " — never charged" : "";
  switch (f.standing) {
    case "waiting":
      return f.waitlist?.paused
        ? {
            state: "waitlisted",
            text: "A place opened, but your card was declined — update your card to stay in line",
            tone: "red",
          }
        : {
            state: "waitlisted",
            text: `On the waitlist — #${f.waitlist?.position ?? "?"} in line`,
            tone: "amber",
          };
    case "released":
      return {
        state: "withdrawn",
        text: `Released — your condition (at least ${f.minPeople} people) wasn't met by the deadline; never charged`,
        tone: "slate",
      };
    case "waitlist_closed":
      return {
        state: "withdrawn",
        text: "The waitlist closed when the event started — never charged",
        tone: "slate",
      };
    case "gave_up":
      return { state: "withdrawn", text: `Gave up your place on ${on}${neverCharged}`, tone: "slate" };
    case "dropped":
      return {
        state: "dropped",
        text: `Dropped on ${on} — the payment wasn't completed in time${never ? "; never charged" : ""}`,
        tone: "slate",
      };
    case "withdrawn":
      return { state: "withdrawn", text: `Withdrawn on ${on}${neverCharged}`, tone: "slate" };
    case "conditional":
    case "in":
      return placeStory(f, e, moneyOf(f));
  }
}

function placeStory(f: BackerFacts, e: EventFacts, money: MoneyState): Omit<BackerStory, "refund"> {
  if (e.phase === "cancelled")
    return money === "none"
      ? { state: "cancelled", text: "Not charged — the event was cancelled", tone: "slate" }
      : { state: "cancelled", text: "The event was cancelled", tone: "slate" };
  if (money === "refunded") return { state: "refunded", text: "Your payment was refunded", tone: "slate" };
  if (money === "owed") return { state: "refunded", text: "Your payment is being refunded", tone: "slate" };
  if (e.phase === "expired")
    return { state: "expired", text: "Not charged — the goal was not reached", tone: "slate" };
  if (f.standing === "conditional")
    return {
      state: "waiting",
      text: conditionText(f.minPeople ?? 1, e.committedCount),
      tone: "amber",
    };
  if (e.phase === "collecting")
    return { state: "waiting", text: `Waiting — ${e.stillNeeded} needed`, tone: "brand" };
  if (f.chargeStatus === "failed" || f.chargeStatus === "requires_action")
    return {
      state: "failed",
      text:
        f.chargeStatus === "requires_action"
          ? "Payment needs your confirmation — please complete it"
          : "Payment failed — please update your card",
      tone: "red",
    };
  if (money === "charged")
    return {
      state: "charged",
      text: `Charged ${formatCents(f.cents)} on ${f.chargedOn}${f.promoted ? " — a place opened for you on the waitlist" : ""}`,
      tone: "green",
    };
  return {
    state: "confirmed",
    text: f.paid ? "Confirmed — your card is being charged" : "Confirmed — it is happening",
    tone: "green",
  };
}

/** Why there is nothing to pay for a commitment that no longer stands (the pay page, the pay action). */
export const NOTHING_TO_PAY: Record<Exclude<Standing, "in" | "conditional">, string> = {
  waiting:
    "A place opened for you, but your card was declined, so the place went to the next person in line and nothing was charged. Update your card from the event page or your profile to be next in line again.",
  dropped:
    "The time to pay for this commitment ran out, so your place was released. You have not been charged, and you won't be.",
  withdrawn: "You withdrew from this event, so there is nothing to pay.",
  gave_up: "You gave up your place at this event, so there is nothing to pay.",
  released:
    "Your condition wasn't met by the deadline, so your commitment was released and there is nothing to pay.",
  waitlist_closed: "The waitlist closed when the event started, so there is nothing to pay.",
};

/** The pay page's badge: where the money of the commitment is. */
export function paymentBadge(
  f: Pick<CommitmentFacts, "standing" | "chargeStatus" | "paid" | "cents" | "refund" | "eventCancelled">,
): {
  label: string;
  tone: Tone;
} {
  const money = moneyOf(f);
  if (money !== "none") return { label: MONEY_WORDS[money], tone: money === "charged" ? "green" : "slate" };
  if (f.chargeStatus === "requires_action") return { label: MONEY_WORDS.requires_action, tone: "amber" };
  if (f.chargeStatus === "failed") return { label: MONEY_WORDS.failed, tone: "red" };
  if (f.chargeStatus === "processing") return { label: MONEY_WORDS.processing, tone: "brand" };
  return { label: MONEY_WORDS.none, tone: "slate" };
}
