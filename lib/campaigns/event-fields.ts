import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import {
  ADDRESS_MAX,
  AREA_MAX,
  VENUE_MAX,
  TITLE_MIN,
  TITLE_MAX,
  DESCRIPTION_MIN,
  DESCRIPTION_MAX,
  GOAL_MAX,
  LOGISTICS_MAX,
  PAYMENT_HANDLE_MAX,
  REFUND_BONUS_DEFAULT,
  REFUND_BONUS_MAX,
  REFUND_BONUS_MIN,
} from "@/lib/campaigns/limits";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";
import {
  addressField,
  areaField,
  bool,
  onlineUrlField,
  optionalText,
  optionalTime,
  parseCapacity,
  parseGoal,
  parseTicketPrice,
  text,
  timeZoneField,
  venueField,
} from "@/lib/campaigns/fields";
import {
  PACT_TYPES,
  PAYMENT_TYPES,
  REVELATION_TYPES,
  COUNT,
  EDIT_NUMERIC,
  anyDeadline,
  capped,
  choice,
  deadline,
  logistics,
  orNull,
  required,
  same,
  toggle,
  type FieldDef,
} from "@/lib/campaigns/event-field-kit";
import { DEPOSIT_FIELDS } from "@/lib/campaigns/deposit-fields";
import { SEAT_FIELDS } from "@/lib/campaigns/seat-fields";

/*
 * Issue 33: an event's fields, defined once. Each says what the form holds (`empty`), on which step
 * of the create form it sits, how the forms draw it (`ui`), how creating parses it (`create`), how a
 * draft keeps it (`draft`: optional, but well-formed), and whether editing may change it (`edit`,
 * with the rule that locks it). The form values, the create, draft and edit schemas
 * (lib/campaigns/schema.ts) and both forms (components/campaigns/event-field.tsx) are built from
 * this list; the checks across fields stay functions beside them. A field with `column: "text"` is
 * optional text stored as is (null when empty): create, drafts, edit and the event page (its `page`
 * label) copy it without more code. Adding a field: add it here (and its column, if it is stored).
 */

export const EVENT_FIELDS = {
  title: {
    empty: "",
    step: 1,
    ui: {
      kind: "text",
      label: "Title",
      hint: `5 to ${TITLE_MAX} characters`,
      placeholder: "Board game night at the library",
      attrs: { maxLength: TITLE_MAX + 20 },
    },
    create: () => required("Title", TITLE_MIN, TITLE_MAX),
    draft: capped(TITLE_MAX, "Title"),
    edit: {
      parse: () => required("Title", TITLE_MIN, TITLE_MAX),
      ui: { hint: undefined, placeholder: undefined },
    },
  },
  description: {
    empty: "",
    step: 1,
    ui: {
      kind: "textarea",
      label: "Description",
      hint: `20 to ${DESCRIPTION_MAX} characters`,
      placeholder: "What is it, who is it for, and why does it need a minimum number of people?",
      attrs: { rows: 5 },
    },
    create: () => required("Description", DESCRIPTION_MIN, DESCRIPTION_MAX),
    draft: capped(DESCRIPTION_MAX, "Description"),
    edit: {
      parse: () => required("Description", DESCRIPTION_MIN, DESCRIPTION_MAX),
      ui: { hint: `Up to ${DESCRIPTION_MAX} characters`, placeholder: undefined },
    },
  },
  logisticalDetails: {
    empty: "",
    step: 1,
    ui: {
      kind: "textarea",
      label: "Logistical Details (optional)",
      hint: `Where, when, what to bring. Up to ${LOGISTICS_MAX} characters`,
      attrs: { rows: 3 },
    },
    ...same(logistics),
    edit: { parse: () => logistics, ui: { hint: `Up to ${LOGISTICS_MAX} characters` } },
    column: "text",
  },
  // issue 33: added through this definition alone (and its column), in a commit of its own
  dressCode: {
    empty: "",
    step: 1,
    ui: {
      kind: "text",
      label: "Dress code (optional)",
      hint: "What to wear, if it matters. Up to 200 characters",
    },
    ...same(capped(200, "Dress code")),
    column: "text",
    page: "Dress code",
  },
  goal: {
    empty: "",
    step: 1,
    ui: {
      kind: "number",
      label: "Goal (minimum attendees)",
      hint: `1 to ${GOAL_MAX.toLocaleString("en-US")} people`,
      attrs: COUNT,
    },
    create: () => text.transform(parseGoal),
    draft: orNull(parseGoal),
    edit: { parse: () => orNull(parseGoal), lockedBy: "money", ui: { ...EDIT_NUMERIC, hint: undefined } },
  },
  deadline: {
    empty: "",
    step: 1,
    ui: { kind: "datetime", label: "Deadline", hint: "Between 24 hours and 1 year from now" },
    create: deadline,
    draft: anyDeadline,
    edit: { parse: () => anyDeadline, lockedBy: "deadline" },
  },
  startsAt: {
    empty: "",
    step: 2,
    ui: { kind: "datetime", label: "Starts", hint: "Not after the deadline" },
    create: (now) => optionalTime("The start", now),
    draft: optionalTime("The start", () => Date.now()),
    edit: { parse: (now) => optionalTime("The start", now) },
  },
  endsAt: {
    empty: "",
    step: 2,
    ui: { kind: "datetime", label: "Ends" },
    create: (now) => optionalTime("The end", now),
    draft: optionalTime("The end", () => Date.now()),
    edit: { parse: (now) => optionalTime("The end", now) },
  },
  // the form fills in the browser's zone; the schema reads "" as UTC
  timeZone: {
    empty: "",
    // step 1, before the deadline that is read in it (issue 34 item 6)
    step: 1,
    ui: { kind: "select", label: "Time zone", hint: "Every time on this form is in this zone" },
    ...same(timeZoneField),
  },
  venue: {
    empty: "",
    step: 2,
    ui: { kind: "text", label: "Venue", placeholder: "Roxy Cinema", attrs: { maxLength: VENUE_MAX + 20 } },
    ...same(venueField),
  },
  address: {
    empty: "",
    step: 2,
    ui: {
      kind: "text",
      label: "Address",
      placeholder: "2 6th Ave, New York, NY",
      attrs: { maxLength: ADDRESS_MAX + 20 },
    },
    ...same(addressField),
  },
  onlineUrl: {
    empty: "",
    step: 2,
    ui: {
      kind: "url",
      label: "Online link (optional)",
      hint: "For an online event",
      placeholder: "https://",
    },
    ...same(onlineUrlField),
  },
  area: {
    empty: "",
    step: 2,
    ui: {
      kind: "text",
      label: "Public area (optional)",
      hint: "For example: Lower East Side",
      attrs: { maxLength: AREA_MAX + 20 },
    },
    ...same(areaField),
  },
  addressPrivate: {
    ...toggle(
      false,
      "Share the address and online link with attendees only",
      "Everyone else sees the venue and the area below; committed attendees see the full address and link.",
    ),
    edit: { parse: () => bool(false) },
  },
  ticketPrice: {
    empty: "",
    step: 1,
    ui: {
      kind: "price",
      label: "Ticket Price ($)",
      hint: "0 or empty for a free event",
      placeholder: "0.00",
    },
    create: () => text.transform(parseTicketPrice),
    draft: orNull(parseTicketPrice),
    edit: {
      parse: () => optionalText.transform((raw, ctx) => (raw === "" ? 0 : parseTicketPrice(raw, ctx))),
      lockedBy: "money",
      ui: { kind: "text", attrs: { inputMode: "decimal" }, hint: undefined, placeholder: undefined },
    },
  },
  pactType: {
    ...choice(PACT_TYPES, "paction"),
    step: 2,
    ui: {
      kind: "cards",
      label: "Pact type",
      options: [
        ["paction", "Paction", "Counts participants: the event happens when enough people commit."],
        ["crowdfund", "Crowdfund", "Counts dollars raised; backers pay you through your payment handle."],
      ],
    },
  },
  attendeesAnonymous: toggle(
    true,
    "Anonymous attendees",
    "Attendees appear as Anonymous Attendee #n to other visitors. This cannot be changed after the event is created.",
  ),
  identityRevelationType: {
    ...choice(REVELATION_TYPES, "never"),
    step: 2,
    ui: {
      kind: "select",
      label: "Reveal identities",
      options: [
        ["never", "Never"],
        ["onStart", "When the event starts (at the deadline when no start is set)"],
        ["immediate", "As soon as the threshold is met"],
      ],
    },
  },
  refundBonusEnabled: {
    ...toggle(false, REFUND_BONUS_TEXTS.formLabel, REFUND_BONUS_TEXTS.formDescription),
    // issue 31: absent (an older form) keeps the stored bonus
    edit: { parse: () => z.boolean().optional(), lockedBy: "money" },
  },
  refundBonusPercentage: {
    empty: String(REFUND_BONUS_DEFAULT),
    step: 2,
    ui: {
      kind: "number",
      label: "Refund bonus (%)",
      hint: REFUND_BONUS_TEXTS.formHint,
      attrs: { min: REFUND_BONUS_MIN, max: REFUND_BONUS_MAX, step: 1 },
    },
    ...same(optionalText),
    edit: { parse: () => optionalText, lockedBy: "money" },
  },
  isTest: toggle(false, "Test event", "Marked TEST and removable by admins from the dashboard."),
  acceptAfterThreshold: toggle(
    false,
    "Keep accepting commitments after the threshold",
    "Off: commitments close once the goal is reached. On: people can still join afterwards and are charged right away.",
  ),
  /** issue 20: the most people who may be in; "" for no limit */
  capacity: {
    empty: "",
    step: 2,
    ui: {
      kind: "number",
      label: "Capacity (optional)",
      hint: "The most people who can attend, at least the goal. Once it is reached, new people join a waitlist in order; when a place opens, the first in line gets it and is charged automatically. Empty: no limit.",
      attrs: COUNT,
    },
    create: () => optionalText.transform(parseCapacity),
    // a draft keeps what was typed if it is a number of people; the create step checks it against the goal
    draft: optionalText.transform((raw) => {
      const n = Number(raw);
      return /^\d+$/.test(raw) && n >= 1 && n <= GOAL_MAX ? n : null;
    }),
    edit: {
      parse: () => optionalText.transform(parseCapacity),
      lockedBy: "money",
      ui: { ...EDIT_NUMERIC, label: "Capacity" },
    },
  },
  /** issue 37: the most people one commitment may hold (its own file) */
  ...SEAT_FIELDS,
  /** issue 21: may go ahead from 80% of the goal */
  earlyGoAhead: toggle(
    false,
    "May go ahead from 80% of the goal",
    "Near misses happen. If you opt in, backers are told before they commit, and once 80% of the goal is reached you may confirm the event yourself; everyone in is then charged as when a goal is met (a free event charges nothing).",
  ),
  /** issue 36 item 3: the show-up deposit (its own file) */
  ...DEPOSIT_FIELDS,
  paymentType: {
    empty: "" as "" | (typeof PAYMENT_TYPES)[number],
    step: 2,
    ui: {
      kind: "select",
      label: "Payment type",
      options: [
        ["", "Choose…"],
        ["venmo", "Venmo"],
        ["paypal", "PayPal"],
        ["other", "Other"],
      ],
    },
    create: () => z.union([z.enum(PAYMENT_TYPES), z.literal(""), z.null()]).optional(),
    draft: z
      .union([z.enum(PAYMENT_TYPES), z.literal(""), z.null()])
      .optional()
      .transform((v) => v || null),
  },
  paymentMethod: {
    empty: "",
    step: 2,
    ui: { kind: "text", label: "Payment handle", hint: "Where backers send money" },
    create: () => capped(PAYMENT_HANDLE_MAX, "Payment handle"),
    draft: optionalText.pipe(z.string().max(PAYMENT_HANDLE_MAX)),
  },
} satisfies Record<string, FieldDef>;
