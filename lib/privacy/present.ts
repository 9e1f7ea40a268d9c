import "server-only";
import { env } from "@/lib/env";
import { createHmac } from "node:crypto";
import { type Actor, canSeeIdentity, type IdentityFacts, seesAllIdentities } from "@/lib/access/rules";

export const anonymousAttendee = (n: number) => `Anonymous Attendee #${n}`;
export const anonymousCommenter = (n: number) => `Anonymous Commenter #${n}`;

/**
 * Presenters: the only way rows that carry identities (user id, name, email) leave the server.
 * They return what the viewer may see; for a hidden person the row keeps no user id, name, email
 * or stored contributor text, only the anonymous label and an opaque key (the pledge or comment
 * id, which says nothing about the user). Callers pass the rows straight from their query and
 * serialise only what comes back.
 */

/** What a presented row says about the person behind it. */
export type PresentedIdentity = {
  /** Stable key for React lists and actions: the pledge or comment id for a visible person, an opaque key for a hidden one; never the user id. */
  key: string;
  /** Display name; else the email (to the person, the organizer, admins) or "Attendee/Commenter #n"; "Anonymous Attendee/Commenter #n" when hidden. */
  label: string;
  /** The email, only when the identity is visible to this viewer. */
  email: string | null;
  anonymous: boolean;
  /** The row belongs to the viewer (people always see themselves). */
  isViewer: boolean;
};

/** Keys that identify a person; stripped from every presented row, whatever the caller selected. */
const IDENTITY_KEYS = ["userId", "authorId", "name", "email", "contributor", "user", "author"] as const;
type IdentityKey = (typeof IDENTITY_KEYS)[number];

type WithoutIdentity<T> = Omit<T, IdentityKey>;

function strip<T extends object>(row: T): WithoutIdentity<T> {
  const copy = { ...row } as Record<string, unknown>;
  for (const k of IDENTITY_KEYS) delete copy[k];
  return copy as WithoutIdentity<T>;
}

/**
 * SPEC §3 Pledge.contributor: the display name, else "Anonymous Backer". Never the email (DESIGN §1
 * "public names": nobody's email is shown but to that person, the organizer and admins).
 */
export function contributorText(name: string | null | undefined): string {
  return name?.trim() || "Anonymous Backer";
}

/** A person without a display name, as those who may not see their email see them (DESIGN §1 "public names"). */
export const numberedAttendee = (n: number) => `Attendee #${n}`;
const numberedCommenter = (n: number) => `Commenter #${n}`;

/**
 * The React key of a hidden person's row: opaque and stable (so "Show more" pages dedupe), derived
 * from the row id with the server's secret, so no other response can tie it to a pledge or comment
 * id, and so to a person (issue 13).
 */
function opaqueKey(rowId: string): string {
  const secret = env().NEXTAUTH_SECRET ?? "pactnexus-row-keys";
  return `h${createHmac("sha256", `row-key\u0000${secret}`).update(rowId).digest("base64url").slice(0, 16)}`;
}

/**
 * Numbers people 1..n by their first appearance (earliest time, then id for ties), so the same
 * person keeps the same number on every list of the page and for every viewer.
 */
export function numberByFirstAppearance(
  firsts: Iterable<{ userId: string; at: Date; tiebreak: string }>,
): Map<string, number> {
  const earliest = new Map<string, { at: number; tiebreak: string }>();
  for (const f of firsts) {
    const cur = earliest.get(f.userId);
    const at = f.at.getTime();
    if (!cur || at < cur.at || (at === cur.at && f.tiebreak < cur.tiebreak))
      earliest.set(f.userId, { at, tiebreak: f.tiebreak });
  }
  const order = [...earliest.entries()].sort(
    ([, a], [, b]) => a.at - b.at || (a.tiebreak < b.tiebreak ? -1 : a.tiebreak > b.tiebreak ? 1 : 0),
  );
  return new Map(order.map(([userId], i) => [userId, i + 1]));
}

/**
 * One person on a list as `viewer` may see them at `now`: their name (their email only to
 * themselves and the overseers, else `labels.unnamed`), or `labels.hidden` with an opaque key. Every
 * list that shows people (commitments, comments) goes through here.
 */
export function presentIdentity(
  viewer: Actor,
  campaign: IdentityFacts,
  now: Date,
  person: { key: string; userId: string; name: string | null; email: string },
  labels: { hidden: string; unnamed: string },
): PresentedIdentity {
  const isViewer = Boolean(viewer && viewer.id === person.userId);
  if (canSeeIdentity(viewer, campaign, person.userId, now)) {
    // Their email only to themselves, the organizer and admins; everyone else sees the name, or a number.
    const seesEmail = isViewer || seesAllIdentities(viewer, campaign);
    const label = person.name?.trim() || (seesEmail ? person.email : labels.unnamed);
    return { key: person.key, label, email: seesEmail ? person.email : null, anonymous: false, isViewer };
  }
  return { key: opaqueKey(person.key), label: labels.hidden, email: null, anonymous: true, isViewer };
}

type AttendeeRow = {
  id: string;
  userId: string;
  createdAt: Date;
  user: { name: string | null; email: string };
};

/**
 * Pledges as `viewer` may see them at `now`. Pass EVERY pledge of the campaign (or at least every
 * earlier one) so that the numbering is the same as on the rest of the page; other fields of the
 * rows (amount, verified, dates...) are kept, identity fields are removed.
 */
export function presentAttendees<T extends AttendeeRow>(
  viewer: Actor,
  campaign: IdentityFacts,
  pledges: T[],
  now: Date = new Date(),
): Array<WithoutIdentity<T> & PresentedIdentity> {
  const numbers = numberByFirstAppearance(
    pledges.map((p) => ({ userId: p.userId, at: p.createdAt, tiebreak: p.id })),
  );
  return pledges.map((p) => {
    const n = numbers.get(p.userId) ?? 0;
    const identity = presentIdentity(
      viewer,
      campaign,
      now,
      { key: p.id, userId: p.userId, name: p.user.name, email: p.user.email },
      { hidden: anonymousAttendee(n), unnamed: numberedAttendee(n) },
    );
    const row = strip(p) as WithoutIdentity<T> & { id?: string };
    // a hidden row keeps no id another response could tie to a person
    if (identity.anonymous && "id" in row) row.id = identity.key;
    return { ...row, ...identity };
  });
}

type CommentRow = {
  id: string;
  authorId: string;
  createdAt: Date;
  author: { name: string | null; email: string };
};

/** Label of the organizer's comments for viewers who may not know who the organizer is (DESIGN §1). */
const ORGANIZER_LABEL = "Event organizer";

export type PresentedComment<T> = WithoutIdentity<T> & PresentedIdentity & { isOrganizer: boolean };

/** Commenter numbers from every author's first comment time (the organizer takes none). */
function numberCommenters(
  firstCommentAt: Array<{ authorId: string; at: Date }>,
  comments: CommentRow[],
  isOrganizer: (id: string) => boolean,
) {
  const known = new Set(firstCommentAt.map((f) => f.authorId));
  return numberByFirstAppearance(
    [
      ...firstCommentAt.map((f) => ({ userId: f.authorId, at: f.at, tiebreak: f.authorId })),
      ...comments
        .filter((c) => !known.has(c.authorId))
        .map((c) => ({ userId: c.authorId, at: c.createdAt, tiebreak: c.authorId })),
    ].filter((f) => !isOrganizer(f.userId)),
  );
}

/**
 * Comments as `viewer` may see them at `now`. `firstCommentAt` gives each author's first comment
 * on the campaign (the rows shown may be only the newest page), which fixes their number.
 *
 * The organizer is not an attendee: their comments are labelled like the organizer box on the
 * page, with their name (or email) for those who may see the organizer's email (`seesOrganizer`:
 * the creator, admins, committed users) and "Event organizer" for everyone else. They take no
 * commenter number.
 */
export function presentComments<T extends CommentRow>(
  viewer: Actor,
  campaign: IdentityFacts,
  comments: T[],
  firstCommentAt: Array<{ authorId: string; at: Date }> | ReadonlyMap<string, number>,
  now: Date = new Date(),
  { seesOrganizer = false }: { seesOrganizer?: boolean } = {},
): Array<PresentedComment<T>> {
  // Ties on the first time are broken by the author id: deterministic, and never shown.
  const isOrganizer = (authorId: string) => authorId === campaign.creatorId;
  // Either every author's first comment time, or the numbers already counted by the database
  // (lib/comments/queries: the same order, for the authors on the page only).
  const numbers =
    firstCommentAt instanceof Map
      ? firstCommentAt
      : numberCommenters(firstCommentAt as Array<{ authorId: string; at: Date }>, comments, isOrganizer);
  const organizerVisible = seesOrganizer || seesAllIdentities(viewer, campaign);
  return comments.map((c) => {
    const person = { key: c.id, userId: c.authorId, name: c.author.name, email: c.author.email };
    if (isOrganizer(c.authorId)) {
      const identity: PresentedIdentity = organizerVisible
        ? {
            key: c.id,
            label: person.name?.trim() || person.email,
            email: person.email,
            anonymous: false,
            isViewer: Boolean(viewer && viewer.id === c.authorId),
          }
        : { key: c.id, label: ORGANIZER_LABEL, email: null, anonymous: false, isViewer: false };
      return { ...strip(c), ...identity, isOrganizer: true };
    }
    const n = numbers.get(c.authorId) ?? 0;
    const identity = presentIdentity(viewer, campaign, now, person, {
      hidden: anonymousCommenter(n),
      unnamed: numberedCommenter(n),
    });
    // a hidden comment keeps no id another response could tie to a person (only those who may
    // delete it need its id, and they see every identity)
    return {
      ...strip(c),
      ...(identity.anonymous ? { id: identity.key } : {}),
      ...identity,
      isOrganizer: false,
    };
  });
}
