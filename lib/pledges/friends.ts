import "server-only";
import { z } from "zod";
import { db, Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { canSeeEvent, type Actor } from "@/lib/access/rules";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import type { Viewer } from "@/lib/access/viewer";
import { withEvent } from "@/lib/events/lock";
import {
  CALLED_OFF_STATUSES,
  inStatuses,
  STANDING_PLEDGE,
  standingPledgeWhere,
} from "@/lib/events/lifecycle";
import { presentIdentity } from "@/lib/privacy/present";
import { reissueTicket } from "@/lib/tickets/service";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import type { QueuedEmail } from "@/lib/email/schema";
import { consume, minutesText } from "@/lib/rate-limit/service";
import { hashTicketToken, isTicketToken, newTicketToken } from "@/lib/security/ticket-token";
import { isUniqueViolation } from "@/lib/campaigns/commit-slots";
import { campaignIdSchema } from "@/lib/pledges/schema";
import { seatClaimedEmail, seatInviteEmail, seatReturnedEmail } from "@/lib/pledges/emails";

/**
 * Named friends (issue 37 item 1, docs/decisions/group-commitments.md): the holder of a group names a
 * friend by email for one of their guest seats; the friend claims the seat into their own account
 * through the emailed link. One live invitation per guest seat (so at most M − 1 per commitment);
 * inviting again replaces it. A claim moves the seat's pledge to the friend (their own seat, slot 0)
 * in one statement under the event's lock — the live unique index refuses a friend already committed
 * — and re-issues its ticket. The claimed seat keeps its group id. Given up, it goes back to the
 * holder (lib/pledges/withdraw.ts returnClaimedSeat).
 */

type Tx = Prisma.TransactionClient;

export const FRIEND_TEXTS = {
  invalidEmail: "Enter a valid email address.",
  noSeat: "Choose one of your guest seats.",
  notCommitted: "You have no commitment to this event.",
  noGuests: "Your commitment is just you, so there is no guest seat to name a friend for.",
  tooMany: (max: number) =>
    `You can name at most ${max} ${max === 1 ? "friend" : "friends"} for this commitment.`,
  ownEmail: "That is your own email: this seat is for a friend.",
  tooFast: (m: string) => `Too many invitations. Try again in ${m}.`,
  invited: (email: string) =>
    `Invitation sent to ${email}. The old link for this seat, if any, no longer works.`,
  unknown: "This link is not valid. Ask the person who invited you to send it again.",
  revoked: "This link was replaced by a newer invitation or the seat was dropped, so it no longer works.",
  claimed: "This seat was already claimed. Each link works once.",
  gone: "This seat is no longer held: the commitment it belonged to was withdrawn or changed.",
  closed: "This event no longer takes commitments, so the seat cannot be claimed.",
  own: "This is your own commitment's seat: send the link to the friend it is for.",
  alreadyCommitted: (holder: string) =>
    `You already have a commitment to this event, so this seat stays with ${holder}.`,
  done: "The seat is yours: it is in My commitments with your own ticket.",
} as const;

const HOLDER_FALLBACK = "the person who invited you";
/** invitations one person may send per hour (each is an email to an address they typed) */
export const INVITE_RATE_LIMIT = { limit: 20, windowMs: 3600_000 } as const;

const inviteSchema = z
  .object(
    {
      campaignId: campaignIdSchema,
      guestSlot: z
        .number({ error: FRIEND_TEXTS.noSeat })
        .int(FRIEND_TEXTS.noSeat)
        .min(1, FRIEND_TEXTS.noSeat)
        .max(9, FRIEND_TEXTS.noSeat),
      email: z
        .string({ error: FRIEND_TEXTS.invalidEmail })
        .trim()
        .toLowerCase()
        .max(254, FRIEND_TEXTS.invalidEmail)
        .pipe(z.email(FRIEND_TEXTS.invalidEmail)),
    },
    { error: FRIEND_TEXTS.noSeat },
  )
  .strict();
const tokenSchema = z.object({ token: z.string().max(200) }).strict();

/** The holder names `email` for their guest seat `guestSlot`: a new invitation (the seat's last one revoked), emailed. */
export async function inviteFriend(actor: Viewer | null, input: unknown): Promise<{ message: string }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { campaignId, guestSlot, email } = parseInput(inviteSchema, input);
  if (actor.email.toLowerCase() === email) throw new AppError("BAD_REQUEST", FRIEND_TEXTS.ownEmail);
  const c = await db.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, title: true, creatorId: true, approvalStatus: true, status: true, maxSeats: true },
  });
  if (!c || !canSeeEvent(actor, c)) throw new AppError("NOT_FOUND", ACCESS_TEXTS.campaignNotFound);
  const seats = await db.pledge.findMany({
    where: { campaignId, userId: actor.id, ...STANDING_PLEDGE },
    select: { id: true, guestSlot: true, groupId: true },
  });
  const own = seats.find((s) => s.guestSlot === 0);
  if (!own) throw new AppError("CONFLICT", FRIEND_TEXTS.notCommitted);
  // only the holder's own group's guest seats (a claimed seat's friend holds no guest seats)
  const guests = seats.filter((s) => s.guestSlot > 0 && s.groupId === own.id);
  if (guests.length === 0) throw new AppError("CONFLICT", FRIEND_TEXTS.noGuests);
  const seat = guests.find((s) => s.guestSlot === guestSlot);
  if (!seat) throw new AppError("BAD_REQUEST", FRIEND_TEXTS.noSeat);
  if (inStatuses(CALLED_OFF_STATUSES, c.status)) throw new AppError("CONFLICT", FRIEND_TEXTS.closed);
  await consume({ key: `seat-invite:user:${actor.id}`, ...INVITE_RATE_LIMIT }, (ms) =>
    FRIEND_TEXTS.tooFast(minutesText(ms)),
  );
  const token = newTicketToken();
  await db.$transaction(async (tx) => {
    const now = new Date();
    await tx.seatInvite.updateMany({
      where: { pledgeId: seat.id, claimedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    // one live invitation per guest seat, and never more than the group's M − 1 (the index holds the first)
    const live = await tx.seatInvite.count({
      where: { campaignId, inviterId: actor.id, claimedAt: null, revokedAt: null },
    });
    if (live >= c.maxSeats - 1) throw new AppError("CONFLICT", FRIEND_TEXTS.tooMany(c.maxSeats - 1));
    const invite = await tx.seatInvite.create({
      data: { campaignId, pledgeId: seat.id, inviterId: actor.id, email, tokenHash: hashTicketToken(token) },
      select: { id: true },
    });
    await queueEmail(tx, seatInviteEmail(c, { email, inviter: actor.name, inviteId: invite.id, token }));
  });
  await kickEmailSender().catch(() => {});
  return { message: FRIEND_TEXTS.invited(email) };
}

/** The holder's guest seats with the friend named for each (the address they typed), and the seats claimed. */
export type MyInvites = {
  seats: { guestSlot: number; invited: string | null }[];
  claimed: string[];
};

/** The viewer's own invitations at an event; nothing for anyone without guest seats there. */
export async function myInvites(actor: Actor, input: unknown): Promise<MyInvites> {
  const { campaignId } = parseInput(z.object({ campaignId: campaignIdSchema }).strict(), input, {
    message: ACCESS_TEXTS.campaignNotFound,
  });
  if (!actor) return { seats: [], claimed: [] };
  const [seats, claimed] = await Promise.all([
    db.pledge.findMany({
      where: { campaignId, userId: actor.id, guestSlot: { gt: 0 }, ...STANDING_PLEDGE },
      select: {
        guestSlot: true,
        seatInvites: { where: { claimedAt: null, revokedAt: null }, select: { email: true } },
      },
      orderBy: { guestSlot: "asc" },
    }),
    db.seatInvite.findMany({
      where: { campaignId, inviterId: actor.id, claimedAt: { not: null }, revokedAt: null },
      select: { email: true, claimedById: true, pledge: { select: { userId: true, standing: true } } },
      orderBy: { claimedAt: "asc" },
    }),
  ]);
  return {
    seats: seats.map((s) => ({ guestSlot: s.guestSlot, invited: s.seatInvites[0]?.email ?? null })),
    // a claimed seat still its friend's (not given back, not withdrawn)
    claimed: claimed
      .filter((r) => r.pledge.userId === r.claimedById && r.pledge.standing !== "withdrawn")
      .map((r) => r.email),
  };
}

/** What a claim link shows: the event, and whether the viewer may claim it (or why not). */
export type ClaimView =
  | { state: "unknown"; message: string }
  | { state: "signIn" | "open"; campaignId: string; title: string }
  | { state: "refused"; campaignId: string; title: string; message: string };

type Found = NonNullable<Awaited<ReturnType<typeof findInvite>>>;

async function findInvite(client: Tx | typeof db, token: string) {
  if (!isTicketToken(token)) return null;
  return client.seatInvite.findUnique({
    where: { tokenHash: hashTicketToken(token) },
    select: {
      id: true,
      campaignId: true,
      pledgeId: true,
      inviterId: true,
      email: true,
      claimedAt: true,
      revokedAt: true,
      pledge: { select: { userId: true, guestSlot: true, standing: true, withdrawnAt: true } },
    },
  });
}

const campaignSelect = {
  id: true,
  title: true,
  creatorId: true,
  approvalStatus: true,
  status: true,
  goal: true,
  committedCount: true,
  pactType: true,
  attendeesAnonymous: true,
  identityRevelationType: true,
  deadline: true,
  startsAt: true,
} as const;

/** Why `actor` may not claim `inv` now, or null; `holder` is the holder as the friend may see them. */
async function refusal(client: Tx | typeof db, actor: NonNullable<Actor>, inv: Found, now: Date) {
  const c = await client.campaign.findUniqueOrThrow({
    where: { id: inv.campaignId },
    select: campaignSelect,
  });
  const holderUser = await client.user.findUniqueOrThrow({
    where: { id: inv.inviterId },
    select: { name: true, email: true },
  });
  const holder = presentIdentity(
    actor,
    c,
    now,
    { key: inv.pledgeId, userId: inv.inviterId, ...holderUser },
    { hidden: HOLDER_FALLBACK, unnamed: HOLDER_FALLBACK },
  ).label;
  if (inv.claimedAt) return { c, message: FRIEND_TEXTS.claimed as string };
  if (inv.revokedAt) return { c, message: FRIEND_TEXTS.revoked as string };
  if (inStatuses(CALLED_OFF_STATUSES, c.status)) return { c, message: FRIEND_TEXTS.closed as string };
  const p = inv.pledge;
  if (p.withdrawnAt || p.userId !== inv.inviterId || p.guestSlot === 0)
    return { c, message: FRIEND_TEXTS.gone as string };
  if (actor.id === inv.inviterId) return { c, message: FRIEND_TEXTS.own as string };
  const mine = await client.pledge.findFirst({
    where: { campaignId: inv.campaignId, userId: actor.id, ...STANDING_PLEDGE },
    select: { id: true },
  });
  if (mine) return { c, message: FRIEND_TEXTS.alreadyCommitted(holder) };
  return { c, message: null, holder };
}

/** The claim page: what the link is, for this viewer (a visitor is asked to sign in first). Changes nothing. */
export async function claimView(actor: Actor, token: string, now = new Date()): Promise<ClaimView> {
  const inv = await findInvite(db, token);
  if (!inv) return { state: "unknown", message: FRIEND_TEXTS.unknown };
  const c = await db.campaign.findUniqueOrThrow({
    where: { id: inv.campaignId },
    select: { id: true, title: true },
  });
  if (!actor) return { state: "signIn", campaignId: c.id, title: c.title };
  const r = await refusal(db, actor, inv, now);
  if (r.message) return { state: "refused", campaignId: c.id, title: c.title, message: r.message };
  return { state: "open", campaignId: c.id, title: c.title };
}

/**
 * The signed-in friend claims the seat of the link: under the event's lock, the seat's pledge
 * becomes theirs (their own seat, slot 0; the group id stays) in one statement, the invitation is
 * used, and the ticket is re-issued (the printed one stops admitting). Counters do not move.
 */
export async function claimSeat(
  actor: Viewer | null,
  input: unknown,
  now = new Date(),
): Promise<{ campaignId: string }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { token } = parseInput(tokenSchema, input, { message: FRIEND_TEXTS.unknown });
  const first = await findInvite(db, token);
  if (!first) throw new AppError("NOT_FOUND", FRIEND_TEXTS.unknown);
  try {
    await db.$transaction((tx) =>
      withEvent(tx, first.campaignId, async () => {
        const inv = (await findInvite(tx, token))!;
        const r = await refusal(tx, actor, inv, now);
        if (r.message) throw new AppError("CONFLICT", r.message);
        // one statement: the live unique (campaign, user, slot) index refuses a friend already committed
        const moved = await tx.$executeRaw`
          UPDATE "Pledge" SET "userId" = ${actor.id}, "guestSlot" = 0, contributor = ${actor.name?.trim() || actor.email}
          WHERE id = ${inv.pledgeId} AND "userId" = ${inv.inviterId} AND "guestSlot" > 0
            AND ${Prisma.raw(standingPledgeWhere())}`;
        if (moved !== 1) throw new AppError("CONFLICT", FRIEND_TEXTS.gone);
        await tx.seatInvite.update({
          where: { id: inv.id },
          data: { claimedAt: now, claimedById: actor.id },
        });
        await reissueTicket(tx, inv.pledgeId);
        await emailHolder(tx, inv.inviterId, (to) =>
          seatClaimedEmail(r.c, { email: to, invited: inv.email, inviteId: inv.id }),
        );
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError("CONFLICT", FRIEND_TEXTS.alreadyCommitted(HOLDER_FALLBACK));
    throw err;
  }
  await kickEmailSender().catch(() => {});
  return { campaignId: first.campaignId };
}

/**
 * A claimed seat given up (its friend withdraws, lib/pledges/withdraw.ts): under the event's lock, the
 * seat goes back to its holder at their lowest free guest slot, in one statement, if the holder's own
 * commitment still stands — not withdrawn, so the counters and the place stay — and its ticket is
 * re-issued. False for a seat that is not a claimed one, or whose holder is gone (then it is withdrawn
 * like any).
 */
export async function returnClaimedSeat(
  tx: Tx,
  seat: { id: string; groupId: string | null; guestSlot: number },
): Promise<boolean> {
  if (!seat.groupId || seat.groupId === seat.id || seat.guestSlot !== 0) return false;
  const moved = await tx.$executeRaw`
    UPDATE "Pledge" p SET "userId" = h."userId", contributor = h.contributor,
      "guestSlot" = (SELECT min(s) FROM generate_series(1, 9) s WHERE NOT EXISTS (
        SELECT 1 FROM "Pledge" x WHERE x."campaignId" = h."campaignId" AND x."userId" = h."userId"
          AND x."guestSlot" = s AND x."withdrawnAt" IS NULL))
    FROM "Pledge" h
    WHERE p.id = ${seat.id} AND h.id = p."groupId" AND ${Prisma.raw(standingPledgeWhere("h"))}`;
  if (moved !== 1) return false;
  await reissueTicket(tx, seat.id);
  // the holder hears of it once, named by the address they typed (the withdrawal kicks the sender)
  const back = await tx.pledge.findUniqueOrThrow({
    where: { id: seat.id },
    select: { userId: true, guestSlot: true, campaign: { select: { id: true, title: true } } },
  });
  const inv = await tx.seatInvite.findFirst({
    where: { pledgeId: seat.id, claimedAt: { not: null }, revokedAt: null },
    orderBy: { claimedAt: "desc" },
    select: { id: true, email: true },
  });
  if (inv)
    await emailHolder(tx, back.userId, (to) =>
      seatReturnedEmail(back.campaign, {
        email: to,
        invited: inv.email,
        inviteId: inv.id,
        guestSlot: back.guestSlot,
      }),
    );
  return true;
}

/** Queues one email to the holder (their account's address), in the caller's transaction. */
async function emailHolder(tx: Tx, holderId: string, email: (to: string) => QueuedEmail) {
  const holder = await tx.user.findUniqueOrThrow({ where: { id: holderId }, select: { email: true } });
  await queueEmail(tx, email(holder.email));
}
