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
  | "count"
  | "uncount"
  | "release"
  | "closeWaitlist"
  | "drop"
  | "charge"
  | "refund";

/** From which standings each transition is allowed (the services check the row they lock against it). */
export const TRANSITIONS: Record<Transition, readonly Standing[]> = {
  withdraw: STANDS,
  giveUp: ["in"],
  promote: ["waiting"],
  count: ["conditional"],
  uncount: ["in"],
  release: ["conditional"],
  closeWaitlist: ["waiting"],
  drop: ["in"],
  charge: COUNTED,
  refund: MAY_CARRY_MONEY,
};

export const mayTransition = (from: Standing, t: Transition) => TRANSITIONS[t].includes(from);

export type Tone = "brand" | "green" | "slate" | "red" | "amber";

/** The badge each standing shows where a commitment no longer stands (My commitments, the manage page). */
export const STANDING_BADGES: Record<Standing, { label: string; tone: Tone }> = {
  in: { label: "In", tone: "green" },
  conditional: { label: "Not counted yet", tone: "amber" },
  waiting: { label: "Waitlisted", tone: "amber" },
  withdrawn: { label: "Withdrawn", tone: "slate" },
  gave_up: { label: "Gave up place", tone: "slate" },
  dropped: { label: "Dropped", tone: "slate" },
  released: { label: "Released", tone: "slate" },
  waitlist_closed: { label: "Waitlist closed", tone: "slate" },
};
