/**
 * A commitment's place (issue 32): one state, `Pledge.standing`, written by the database from the
 * markers (trigger pn_standing, migration pledge_standing). This file is the one table of what each
 * standing means: which rules it satisfies (the SQL fragment and the Prisma filter are built from the
 * same lists), which transitions it allows, and the badge it shows. The presenters
 * (lib/events/story.ts) read it; none decodes the markers.
 */
export const STANDINGS = [
  "in",
  "conditional",
  "waiting",
  "withdrawn",
  "gave_up",
  "dropped",
  "released",
  "waitlist_closed",
] as const;
export type Standing = (typeof STANDINGS)[number];

/** Holds a place: counted, or waiting for its personal threshold (issue 21). */
export const HOLDS_PLACE = ["in", "conditional"] as const satisfies readonly Standing[];
/** Stands (one per person and event): holds a place or waits for one. */
export const STANDS = ["in", "conditional", "waiting"] as const satisfies readonly Standing[];
/** Counted toward the goal and charged at the tip. */
export const COUNTED = ["in"] as const satisfies readonly Standing[];
/** Was counted once and may carry a charge (and then its refund). */
export const MAY_CARRY_MONEY = [
  "in",
  "withdrawn",
  "gave_up",
  "dropped",
] as const satisfies readonly Standing[];

export const isStanding = (s: string): s is Standing => (STANDINGS as readonly string[]).includes(s);
export const standsNow = (s: Standing) => (STANDS as readonly Standing[]).includes(s);

/** A rule as a Prisma filter on the pledge. */
export const standingWhere = (list: readonly Standing[]) => ({ standing: { in: [...list] } });
/** The same rule as SQL on the pledge table under `alias`. */
export const standingSql = (list: readonly Standing[], alias?: string) =>
  `${alias ? `${alias}.` : ""}"standing" IN (${list.map((s) => `'${s}'`).join(", ")})`;

/** What may happen to a commitment, by name. */
export type Transition =
  | "withdraw"
  | "giveUp"
  | "promote"
  | "demote"
  | "count"
  | "uncount"
  | "release"
  | "closeWaitlist"
  | "drop"
  | "reinstate"
  | "endHandover"
  | "charge"
  | "refund";

type Move = readonly [from: Standing, to: Standing];
const to = (target: Standing, from: readonly Standing[]): Move[] => from.map((f) => [f, target] as const);
const stays = (list: readonly Standing[]): Move[] => list.map((f) => [f, f] as const);

/** Where a commit lands: counted, held on a condition, or in line. */
export const ENTRY: readonly Standing[] = ["in", "conditional", "waiting"];

/**
 * The one table of what may happen to a commitment: each transition's moves, from → to. A charge
 * or a refund moves money, not the standing. `tests/events/transitions.property.test.ts` checks
 * that every change the real services make is one move of this table.
 */
export const MOVES: Record<Transition, readonly Move[]> = {
  withdraw: to("withdrawn", STANDS),
  giveUp: [["in", "gave_up"]],
  // a promoted commitment with a condition that does not hold yet waits for it, holding the place
  promote: [
    ["waiting", "in"],
    ["waiting", "conditional"],
  ],
  // a promotion whose charge failed goes back in line (issue 20)
  demote: [["in", "waiting"]],
  count: [["conditional", "in"]],
  // before the tip a member whose condition stops holding (someone left) is held again (issue 21)
  uncount: [["in", "conditional"]],
  release: [["conditional", "released"]],
  closeWaitlist: [["waiting", "waitlist_closed"]],
  drop: [["in", "dropped"]],
  // the taker of a given-up place could not pay and nobody else waits: the giver is in again
  reinstate: [["gave_up", "in"]],
  // a giver who committed again meanwhile: an ordinary withdrawal now, refunded as one
  endHandover: [["gave_up", "withdrawn"]],
  charge: stays(COUNTED),
  refund: stays(MAY_CARRY_MONEY),
};

/** From which standings each transition is allowed (the services check the row they lock against it). */
export const TRANSITIONS = {} as Record<Transition, readonly Standing[]>;
for (const [t, moves] of Object.entries(MOVES) as [Transition, readonly Move[]][])
  TRANSITIONS[t] = [...new Set(moves.map(([from]) => from))];

/** Whether one transition of the table moves a commitment from `from` to `target`. */
export const isMove = (from: Standing, target: Standing) =>
  Object.values(MOVES).some((moves) => moves.some(([f, t]) => f === from && t === target));

export const mayTransition = (from: Standing, t: Transition) => TRANSITIONS[t].includes(from);

export type Tone = "brand" | "green" | "slate" | "red" | "amber";
/** A badge: its words and colour (a standing's here, an event phase's in lifecycle.ts). */
export type Badge = { label: string; tone: Tone };

/** The badge each standing shows where a commitment no longer stands (My commitments, the manage page). */
export const STANDING_BADGES: Record<Standing, Badge> = {
  in: { label: "In", tone: "green" },
  conditional: { label: "Not counted yet", tone: "amber" },
  waiting: { label: "Waitlisted", tone: "amber" },
  withdrawn: { label: "Withdrawn", tone: "slate" },
  gave_up: { label: "Gave up place", tone: "slate" },
  dropped: { label: "Dropped", tone: "slate" },
  released: { label: "Released", tone: "slate" },
  waitlist_closed: { label: "Waitlist closed", tone: "slate" },
};
