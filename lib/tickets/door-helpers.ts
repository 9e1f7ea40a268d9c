import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { isRowId } from "@/lib/ids";
import { parseInput } from "@/lib/actions";
import { canManageEvent, isOrganizer, type Actor } from "@/lib/access/rules";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import { renderEmail } from "@/lib/email/render";
import { consume, minutesText } from "@/lib/rate-limit/service";

/**
 * Door helpers (issue 36 item 2): people the organizer invites by email to check attendees in at
 * one event. A helper is whoever signs in with the invited email once that email is confirmed; they
 * may open the event's check-in page and check in there, nothing else (not the manage page, not the
 * names the event hides).
 */

/** Who is at the door: the event's organizer, one of its door helpers, or nobody allowed. */
export type DoorRole = "organizer" | "helper";

export type DoorActor = { id: string; email: string; isAdmin: boolean } | null;

export const DOOR_TEXT = {
  invalidEmail: "Enter a valid email address.",
  invited: (email: string) => `Invitation sent to ${email}.`,
  tooMany: (m: string) => `Too many invitations. Try again in ${m}.`,
  ownEmail: "You are the organizer: you can already check people in.",
  denied: "Only the organizer and the door helpers of this event can check people in.",
};

const MAX_HELPERS = 50;

const inviteSchema = z
  .object({
    campaignId: z.string().refine(isRowId, "Unknown event."),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254, DOOR_TEXT.invalidEmail)
      .pipe(z.email(DOOR_TEXT.invalidEmail)),
  })
  .strict();

/**
 * The actor's role at the door of `campaign`: its organizer, or a door helper (a signed-in user
 * whose confirmed email the organizer invited). Admins are not door staff by being admins.
 */
export async function doorRoleOf(
  actor: DoorActor,
  campaign: { id: string; creatorId: string },
): Promise<DoorRole | null> {
  if (!actor) return null;
  if (isOrganizer(actor, campaign)) return "organizer";
  const user = await db.user.findUnique({
    where: { id: actor.id },
    select: { email: true, emailVerified: true },
  });
  if (!user?.emailVerified) return null;
  const helper = await db.doorHelper.findUnique({
    where: { campaignId_email: { campaignId: campaign.id, email: user.email.toLowerCase() } },
    select: { id: true },
  });
  return helper ? "helper" : null;
}

async function ownedEvent(actor: Actor, campaignId: string) {
  const c = isRowId(campaignId)
    ? await db.campaign.findUnique({
        where: { id: campaignId },
        select: { id: true, creatorId: true, title: true },
      })
    : null;
  if (!c) throw new AppError("NOT_FOUND", "Unknown event.");
  if (!canManageEvent(actor, c))
    throw new AppError("FORBIDDEN", "Only the organizer can invite door helpers.");
  return c;
}

/**
 * The organizer invites `email` as a door helper of their event: the row, and the invitation in the
 * outbox (once per event and address: inviting again sends nothing new). Rate-limited per organizer.
 */
export async function inviteDoorHelper(
  actor: DoorActor,
  input: { campaignId: string; email: string },
): Promise<{ message: string }> {
  const { campaignId, email } = parseInput(inviteSchema, input);
  const c = await ownedEvent(actor, campaignId);
  if (actor && actor.email.toLowerCase() === email) throw new AppError("BAD_REQUEST", DOOR_TEXT.ownEmail);
  const count = await db.doorHelper.count({ where: { campaignId } });
  if (count >= MAX_HELPERS)
    throw new AppError("BAD_REQUEST", `An event has at most ${MAX_HELPERS} door helpers.`);
  await consume({ key: `door-invite:user:${actor!.id}`, limit: 30, windowMs: 3600_000 }, (ms) =>
    DOOR_TEXT.tooMany(minutesText(ms)),
  );
  const url = `${appUrl()}/campaign/${c.id}/check-in`;
  await db.$transaction(async (tx) => {
    await tx.doorHelper.createMany({ data: [{ campaignId, email }], skipDuplicates: true });
    await queueEmail(tx, {
      dedupeKey: `door-helper:${campaignId}:${email}`,
      to: email,
      subject: `Help at the door: ${c.title}`,
      ...renderEmail({
        heading: "You are invited to help at the door",
        paragraphs: [
          `The organizer of "${c.title}" on PactNexus asked you to check attendees in at the door.`,
          `Sign in (or create an account) with this email address, ${email}, and confirm it; then open the check-in page.`,
        ],
        action: { label: "Open the check-in page", url },
      }),
    });
  });
  await kickEmailSender().catch(() => {});
  return { message: DOOR_TEXT.invited(email) };
}

/** The organizer removes a door helper: from then on that email checks nobody in. */
export async function removeDoorHelper(
  actor: DoorActor,
  input: { campaignId: string; email: string },
): Promise<void> {
  const { campaignId, email } = parseInput(inviteSchema, input);
  await ownedEvent(actor, campaignId);
  await db.doorHelper.deleteMany({ where: { campaignId, email } });
}

/** The door helpers of an event, for its organizer's manage page (null for anyone else). */
export async function doorHelpersOf(
  actor: DoorActor,
  campaignId: string,
): Promise<{ email: string; invitedAt: Date }[] | null> {
  const c = isRowId(campaignId)
    ? await db.campaign.findUnique({ where: { id: campaignId }, select: { creatorId: true } })
    : null;
  if (!c || !canManageEvent(actor, c)) return null;
  return db.doorHelper.findMany({
    where: { campaignId },
    select: { email: true, invitedAt: true },
    orderBy: { invitedAt: "asc" },
  });
}
