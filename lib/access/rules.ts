import { revealAt, thresholdMet, type ThresholdFacts } from "@/lib/events/lifecycle";

/**
 * Who may do what (SPEC §4, §6; DESIGN §1): one predicate per access level, pure and
 * dependency-free, so the proxy (no Prisma) and the server-side policy (lib/access/policy.ts) ask
 * the same questions. The security registry (tests/security/registry.ts) names its levels from
 * ACCESS_LEVELS below, so registry, policy and tests speak of the same levels.
 */

/** Whoever is asking: a signed-in user (any richer viewer type fits) or nobody. */
export type Actor = { id: string; isAdmin: boolean } | null;

/** The access levels of every entry point (route handler, server action). */
export const ACCESS_LEVELS = {
  public: "anyone, signed in or not",
  "signed-in": "any signed-in user (admins included)",
  creator: "the campaign's creator only (admins included only where stated)",
  "creator-or-admin": "the campaign's creator or an admin",
  backer: "the user who owns the pledge",
  admin: "admins only",
  "stripe-signature": "no session involved: only a request signed with STRIPE_WEBHOOK_SECRET",
  token: "anyone holding a valid signed token (the link in an email)",
} as const;
export type Access = keyof typeof ACCESS_LEVELS;

type Owned = { creatorId: string };
type Moderated = Owned & { approvalStatus: string };

export const isApproved = (c: { approvalStatus: string }) => c.approvalStatus === "approved";

export const isOrganizer = (actor: Actor, c: Owned): boolean => Boolean(actor && actor.id === c.creatorId);

/** Admins moderate: approve, reject, see every event. */
export const canModerate = (actor: Actor): boolean => Boolean(actor?.isAdmin);

/** See the event: approved events exist for everyone, others only for their creator and admins. */
export const canSeeEvent = (actor: Actor, c: Moderated): boolean =>
  isApproved(c) || isOrganizer(actor, c) || canModerate(actor);

/** Manage it (the manage page, CSV, updates): the creator only (SPEC §6: "own campaigns only"). */
export const canManageEvent = (actor: Actor, c: Owned): boolean => isOrganizer(actor, c);

/** Oversee it (cancel, manual charge, delete comments, see every identity): the creator or an admin. */
export const canOverseeEvent = (actor: Actor, c: Owned): boolean =>
  isOrganizer(actor, c) || canModerate(actor);

/** Act on a pledge (pay a failed charge, see its card): its backer only. */
export const canActOnPledge = (actor: Actor, pledge: { userId: string }): boolean =>
  Boolean(actor && actor.id === pledge.userId);

/** DESIGN §1: the creator's email is shown to the creator, admins and users who committed. */
export const canSeeCreatorEmail = (actor: Actor, c: Owned, actorCommitted: boolean): boolean =>
  canOverseeEvent(actor, c) || Boolean(actor && actorCommitted);

// ---- identities (SPEC §4, DESIGN §1 "identity revelation") -----------------------------------------

export type RevelationType = "never" | "onStart" | "immediate";

export type IdentityFacts = Owned &
  ThresholdFacts & {
    attendeesAnonymous: boolean;
    identityRevelationType: RevelationType;
    deadline: Date;
    /** the event's start: "onStart" reveals then (the deadline when none) */
    startsAt: Date | null;
  };

/** Whether identities are public at `now` for viewers with no special standing. */
export function identitiesPublic(c: IdentityFacts, now: Date): boolean {
  if (!c.attendeesAnonymous) return true;
  switch (c.identityRevelationType) {
    case "immediate":
      return thresholdMet(c);
    case "onStart":
      return now.getTime() >= revealAt(c).getTime();
    case "never":
    default:
      return false;
  }
}

/** See a person's identity: the overseers, the person themselves, or everyone once identities are public. */
export function canSeeIdentity(actor: Actor, c: IdentityFacts, subjectUserId: string, now: Date): boolean {
  if (canOverseeEvent(actor, c) || Boolean(actor && actor.id === subjectUserId)) return true;
  return identitiesPublic(c, now);
}

/** Whether `actor` sees every identity of the event (creator and admins). */
export const seesAllIdentities = (actor: Actor, c: Owned): boolean => canOverseeEvent(actor, c);

// ---- the cached copies for members (lib/cache/visitor-version.ts) ----------------------------------

/**
 * Which cached copy of an event page a signed-in person may be served, or null for a page rendered
 * for them. The organizer (not an admin: admins see moderation tools) gets a copy of their own, made
 * for them alone and keyed by the event's version and theirs (issue 35: the organizer's page served
 * like the visitors' copies). Anyone else who oversees the event sees more than any copy holds, and
 * someone with a row of their own among the page's first lists sees themselves, not "Anonymous".
 * Everyone else sees what a member who has (or has not) committed sees.
 */
export function memberCopyAudience(facts: {
  actor: NonNullable<Actor>;
  creatorId: string;
  committed: boolean;
  listed: boolean;
}): "committed" | "member" | "organizer" | null {
  if (isOrganizer(facts.actor, facts) && !canModerate(facts.actor)) return "organizer";
  if (canOverseeEvent(facts.actor, facts) || facts.listed) return null;
  return facts.committed ? "committed" : "member";
}

// ---- the exact place (issue 16, DESIGN §1 "event time and place") ---------------------------------

/**
 * An address (and online link) kept for attendees: the organizer, admins and people who committed
 * see it; everyone else sees the venue and the public area. Not kept: everyone sees it.
 */
export const canSeeExactPlace = (
  actor: Actor,
  c: Owned & { addressPrivate: boolean },
  actorCommitted: boolean,
) => !c.addressPrivate || canOverseeEvent(actor, c) || Boolean(actor && actorCommitted);
