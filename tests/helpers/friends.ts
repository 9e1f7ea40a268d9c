import { db } from "@/lib/db";
import { claimSeat, inviteFriend } from "@/lib/pledges/friends";
import { createUser } from "@/tests/helpers/factories";

/* Issue 37, named friends: the setup the friends' tests share (tests/groups, tests/privacy). */

export type Person = { id: string; email: string; name: string | null; isAdmin: false };

/** A signed-in person as the core reads a viewer, with the account name `name` if given. */
export async function person(name: string | null = null): Promise<Person> {
  const u = await createUser();
  if (name) await db.user.update({ where: { id: u.id }, data: { name } });
  return { id: u.id, email: u.email, name, isAdmin: false };
}

/** The claim link's token, as the friend reads it in their newest "A seat for you" email (the outbox row). */
export async function linkSentTo(email: string): Promise<string> {
  const mail = await db.emailOutbox.findFirstOrThrow({
    where: { toEmail: email, subject: { startsWith: "A seat for you" } },
    orderBy: { createdAt: "desc" },
    select: { text: true },
  });
  return /\/claim\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
}

/** The holder names `invited` for guest seat `guestSlot`, and `friend` claims it through the emailed link. */
export async function nameAndClaim(
  holder: Person,
  campaignId: string,
  guestSlot: number,
  invited: string,
  friend: Person,
): Promise<void> {
  await inviteFriend(holder, { campaignId, guestSlot, email: invited });
  await claimSeat(friend, { token: await linkSentTo(invited) });
}
