import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { claimSeat, FRIEND_TEXTS } from "@/lib/pledges/friends";
import { queueEmail } from "@/lib/email/service";
import { seatClaimedEmail } from "@/lib/pledges/emails";
import { createCampaign } from "@/tests/helpers/factories";
import { linkSentTo, nameAndClaim, person } from "@/tests/helpers/friends";

/* Issue 37 item 1, named friends: the holder hears once when a friend claims a seat and when it comes back. */

/** Ada holds a group of `seats` on a free event, with "Hidden Sam" (another address) claiming Guest 1. */
async function claimed(seats = 3) {
  const c = await createCampaign({ goal: 10, maxSeats: 4, attendeesAnonymous: true });
  const ada = await person("Ada Holder");
  await commitToCampaign(ada, { campaignId: c.id, seats });
  const sam = await person("Hidden Sam");
  await nameAndClaim(ada, c.id, 1, "sam.invited@example.test", sam);
  return { c, ada, sam };
}
const mailTo = (email: string, startsWith: string) =>
  db.emailOutbox.findMany({
    where: { toEmail: email, subject: { startsWith } },
    select: { subject: true, text: true, html: true, dedupeKey: true },
  });

describe("the holder hears about their named friends", () => {
  it("a claim: one email to the holder naming the address they typed, nothing the friend keeps to themself", async () => {
    const { c, ada, sam } = await claimed();
    const mails = await mailTo(ada.email, "Your friend claimed their seat");
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe(`Your friend claimed their seat: "${c.title}"`);
    expect(mail!.text).toContain("The seat you named sam.invited@example.test for");
    expect(mail!.text).toContain(`/campaign/${c.id}`);
    for (const secret of [sam.email, "Hidden Sam"]) expect(JSON.stringify(mail)).not.toContain(secret);
    // nothing to the friend's own account address about it
    expect(await mailTo(sam.email, "sam.invited")).toHaveLength(0);

    // retries: the link works once, and the same email queued again is the same row
    const invite = await db.seatInvite.findFirstOrThrow({
      where: { campaignId: c.id, claimedAt: { not: null } },
    });
    const again = await claimSeat(sam, { token: await linkSentTo("sam.invited@example.test") }).catch(
      (e: Error) => e.message,
    );
    expect(again).toBe(FRIEND_TEXTS.claimed);
    const requeued = await db.$transaction((tx) =>
      queueEmail(
        tx,
        seatClaimedEmail(c, { email: ada.email, invited: "sam.invited@example.test", inviteId: invite.id }),
      ),
    );
    expect(requeued).toBe(false);
    expect(await mailTo(ada.email, "Your friend claimed their seat")).toHaveLength(1);
  });

  it("a claimed seat given back: one email to the holder with the guest seat it became; once per claim", async () => {
    const { c, ada, sam } = await claimed();
    await withdrawCommitment(sam, { campaignId: c.id });
    const mails = await mailTo(ada.email, "A seat came back to you");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`A seat came back to you: "${c.title}"`);
    expect(mails[0]!.text).toContain("sam.invited@example.test gave up the seat");
    expect(mails[0]!.text).toContain("Guest 1");
    for (const secret of [sam.email, "Hidden Sam"]) expect(JSON.stringify(mails)).not.toContain(secret);
    // the friend gave it back: they get no withdrawal email (the seat was never withdrawn)
    expect(
      await db.emailOutbox.count({ where: { toEmail: sam.email, dedupeKey: { startsWith: "withdrawn:" } } }),
    ).toBe(0);

    // named again, claimed again, given back again: a second email (a new claim), still one per claim
    const ty = await person();
    await nameAndClaim(ada, c.id, 1, "ty.invited@example.test", ty);
    await withdrawCommitment(ty, { campaignId: c.id });
    const after = await mailTo(ada.email, "A seat came back to you");
    expect(after).toHaveLength(2);
    expect(after.map((m) => m.text).join()).toContain("ty.invited@example.test gave up the seat");
    const claims = await mailTo(ada.email, "Your friend claimed their seat");
    expect(claims.filter((m) => m.text.includes("ty.invited@example.test"))).toHaveLength(1);
  });

  it("no 'came back' email when the holder's commitment is gone: the seat is withdrawn like any", async () => {
    const { c, ada, sam } = await claimed(2);
    await withdrawCommitment(ada, { campaignId: c.id });
    await withdrawCommitment(sam, { campaignId: c.id });
    expect(await mailTo(ada.email, "A seat came back to you")).toHaveLength(0);
  });
});
