import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { queueCommitEmail, queueConfirmedEmails, queueModerationEmail } from "@/lib/campaigns/notifications";
import { hourKey, queueOrganizerDigests } from "@/lib/pledges/digest";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const inTenDays = () => new Date(Date.now() + 10 * 24 * 3600_000);

const byKey = (prefix: string) =>
  db.emailOutbox.findMany({ where: { dedupeKey: { startsWith: prefix } }, orderBy: { toEmail: "asc" } });

describe("cause hooks", () => {
  it("commit: one email to the backer with a TENTATIVE calendar entry, even if the hook runs twice", async () => {
    const backer = await createUser();
    const campaign = await createCampaign({ ticketPriceCents: 1250, goal: 4, startsAt: inTenDays() });
    const pledge = await createPledge(campaign.id, backer.id, { paymentMethodId: "pm_x", amountCents: 1250 });
    await db.$transaction((tx) => queueCommitEmail(tx, pledge.id));
    await db.$transaction((tx) => queueCommitEmail(tx, pledge.id));
    const [email, ...rest] = await byKey(`commit:${pledge.id}:`);
    expect(rest).toEqual([]);
    expect(email.toEmail).toBe(backer.email);
    // issue 34: the event's money sentence — charged only if the goal is met, at the moment it is
    expect(email.text).toContain("You're charged $12.50 only if the goal of 4 people is met by ");
    expect(email.text).toContain("and at once, the moment it is. Otherwise nobody pays.");
    const [ics] = email.attachments as Array<{ filename: string; content: string }>;
    expect(ics.content).toContain("STATUS:TENTATIVE");
    expect(ics.content).toContain(`UID:campaign-${campaign.id}@pactnexus`);
  });

  it("confirmed: 'Event Confirmed!' with the amount charged and the same calendar UID, CONFIRMED, once per attendee", async () => {
    const campaign = await createCampaign({ ticketPriceCents: 900, goal: 2, startsAt: inTenDays() });
    const a = await createUser();
    const b = await createUser();
    const uncharged = await createUser();
    for (const u of [a, b]) {
      const p = await createPledge(campaign.id, u.id, { paymentMethodId: "pm", amountCents: 900 });
      await db.pledge.update({
        where: { id: p.id },
        data: {
          charged: true,
          verified: true,
          chargedAt: new Date(),
          chargeType: "paid",
          chargeStatus: "succeeded",
        },
      });
    }
    await createPledge(campaign.id, uncharged.id, { paymentMethodId: "pm", amountCents: 900 });
    expect(await db.$transaction((tx) => queueConfirmedEmails(tx, campaign.id))).toBe(2);
    expect(await db.$transaction((tx) => queueConfirmedEmails(tx, campaign.id))).toBe(0); // retried job
    const emails = await byKey(`confirmed:${campaign.id}:`);
    expect(emails.map((e) => e.toEmail).sort()).toEqual([a.email, b.email].sort());
    expect(emails[0].subject).toBe(`Event Confirmed! "${campaign.title}" is happening`);
    expect(emails[0].text).toContain("You were charged $9.00.");
    const ics = (emails[0].attachments as Array<{ content: string }>)[0].content;
    expect(ics).toContain("STATUS:CONFIRMED");
    expect(ics).toContain(`UID:campaign-${campaign.id}@pactnexus`);
  });

  it("an event with a date and place says them in its zone; one without a date attaches no calendar entry (issue 16)", async () => {
    const dated = await createCampaign({
      ticketPriceCents: 900,
      goal: 2,
      startsAt: new Date("2027-01-09T00:30:00Z"),
      endsAt: new Date("2027-01-09T03:00:00Z"),
      timeZone: "America/New_York",
      venue: "Roxy Cinema",
      address: "2 6th Ave",
      addressPrivate: true,
      area: "Tribeca",
    });
    const undated = await createCampaign({ ticketPriceCents: 900, goal: 2 });
    for (const c of [dated, undated]) {
      const u = await createUser();
      const p = await createPledge(c.id, u.id, { paymentMethodId: "pm", amountCents: 900 });
      await db.pledge.update({
        where: { id: p.id },
        data: {
          charged: true,
          verified: true,
          chargedAt: new Date(),
          chargeType: "paid",
          chargeStatus: "succeeded",
        },
      });
      await db.$transaction((tx) => queueConfirmedEmails(tx, c.id));
    }
    const [withDate] = await byKey(`confirmed:${dated.id}:`);
    // the recipient committed: the attendee-only address is theirs to see
    expect(withDate.text).toContain(
      "It starts Fri, Jan 8, 2027, 7:30 PM – 10:00 PM EST at Roxy Cinema, 2 6th Ave.",
    );
    const ics = (withDate.attachments as Array<{ content: string }>)[0].content;
    expect(ics).toContain("DTSTART;TZID=America/New_York:20270108T193000");
    expect(ics).toContain("LOCATION:Roxy Cinema\\, 2 6th Ave");
    const [withoutDate] = await byKey(`confirmed:${undated.id}:`);
    expect(withoutDate.text).toContain("The date is to be announced");
    expect(withoutDate.attachments ?? []).toEqual([]);
  });

  it("moderation: the organizer is told about each decision once", async () => {
    const creator = await createUser();
    const admin = await createUser({ isAdmin: true });
    const campaign = await createCampaign({ creatorId: creator.id, approvalStatus: "pending" });
    const log = await db.moderationLog.create({
      data: { campaignId: campaign.id, actorId: admin.id, fromStatus: "pending", toStatus: "approved" },
    });
    await db.$transaction((tx) => queueModerationEmail(tx, log.id));
    await db.$transaction((tx) => queueModerationEmail(tx, log.id));
    const emails = await byKey(`moderation:${log.id}:`);
    expect(emails.map((e) => [e.toEmail, e.subject])).toEqual([
      [creator.email, `"${campaign.title}" is approved and live`],
    ]);
  });
});

describe("organizer commitment digest", () => {
  it("sends at most one email per event per hour, counting that hour's commitments, skipping opted-out organizers", async () => {
    const creator = await createUser();
    const quiet = await createUser();
    await db.user.update({ where: { id: quiet.id }, data: { emailOptOut: true } });
    const campaign = await createCampaign({ creatorId: creator.id, goal: 10 });
    const muted = await createCampaign({ creatorId: quiet.id });
    const now = new Date(Date.UTC(2026, 5, 10, 15, 7));
    const at = (h: number, m: number) => new Date(Date.UTC(2026, 5, 10, h, m));
    for (const t of [at(14, 5), at(14, 40), at(14, 59), at(13, 10), at(15, 1)])
      await createPledge(campaign.id, undefined, { createdAt: t });
    await createPledge(muted.id, undefined, { createdAt: at(14, 30) });

    expect(await queueOrganizerDigests(now)).toBe(2); // 14:00-15:00 (3) and 13:00-14:00 (1); 15:01 is not complete yet
    expect(await queueOrganizerDigests(now)).toBe(0);
    expect(await queueOrganizerDigests(new Date(now.getTime() + 20 * 60_000))).toBe(0);
    const emails = await db.emailOutbox.findMany({
      where: { dedupeKey: { startsWith: `commit-digest:${campaign.id}:` } },
      orderBy: { dedupeKey: "asc" },
    });
    expect(emails.map((e) => [e.dedupeKey.split(":")[2], e.subject])).toEqual([
      [hourKey(at(13, 0)), `1 new commitment to "${campaign.title}"`],
      [hourKey(at(14, 0)), `3 new commitments to "${campaign.title}"`],
    ]);
    expect(emails.every((e) => e.toEmail === creator.email && e.text.includes("/unsubscribe?token="))).toBe(
      true,
    );
    expect(
      await db.emailOutbox.count({ where: { dedupeKey: { startsWith: `commit-digest:${muted.id}:` } } }),
    ).toBe(0);

    // The next hour picks up 15:01.
    expect(await queueOrganizerDigests(new Date(Date.UTC(2026, 5, 10, 16, 5)))).toBe(1);
  });
});

describe("copy that fits the moment (issue 19)", () => {
  it("the commitment that reaches the goal is told the card is charged now, not 'only if'", async () => {
    const c = await createCampaign({ ticketPriceCents: 900, goal: 2 });
    const first = await createPledge(c.id, undefined, { paymentMethodId: "pm", amountCents: 900 });
    await db.campaign.update({ where: { id: c.id }, data: { committedCount: 1 } });
    await db.$transaction((tx) => queueCommitEmail(tx, first.id));
    const second = await createPledge(c.id, undefined, { paymentMethodId: "pm", amountCents: 900 });
    await db.campaign.update({ where: { id: c.id }, data: { committedCount: 2, status: "funded" } });
    await db.$transaction((tx) => queueCommitEmail(tx, second.id));

    const [before] = await byKey(`commit:${first.id}:`);
    expect(before.text).toContain("You're charged $9.00 only if the goal of 2 people is met by ");
    expect(before.text).toContain("It needs 1 more person.");
    const [crossing] = await byKey(`commit:${second.id}:`);
    expect(crossing.text).toContain("The goal is reached, so your card is being charged $9.00 now.");
    expect(crossing.text).not.toContain("only if");
    expect(crossing.text).not.toContain("The goal has been reached!");
  });

  it("a crowdfund's reminder and digest count dollars, not commitments", async () => {
    const { deadlineReminderEmail, organizerCommitDigestEmail } = await import("@/lib/campaigns/emails");
    const c = {
      ...(await createCampaign({ goal: 1000, ticketPriceCents: 0 })),
      pactType: "crowdfund",
      raisedCents: 60_000n,
      committedCount: 2,
    };
    const to = { userId: "u1", email: "u1@example.test" };
    const reminder = deadlineReminderEmail(c, to, "backer");
    expect(reminder.subject).toBe(`"${c.title}" needs $400.00 more — 48 hours left`);
    expect(reminder.text).toContain("has $600.00 of $1,000.00 pledged");
    expect(reminder.text).toContain("It needs $400.00 more in pledges to happen.");
    expect(reminder.text).not.toContain("998");
    const digest = organizerCommitDigestEmail(c, to, 1, "2026-11-25T10");
    expect(digest.text).toContain("now has $600.00 of $1,000.00 pledged.");
    expect(digest.text).not.toContain("of 1000 commitments");
  });

  it("a failed charge's email uses the branded layout, names the amount, the card and the reason in plain words", async () => {
    const { onChargeFailed } = await import("@/lib/charging/notify");
    const c = await createCampaign({ ticketPriceCents: 900, goal: 1, status: "charged" });
    const p = await createPledge(c.id, undefined, { paymentMethodId: "pm", amountCents: 900 });
    await db.pledge.update({
      where: { id: p.id },
      data: {
        chargeStatus: "failed",
        chargeFailureCode: "insufficient_funds",
        chargeFailureMessage: "Your card has insufficient funds.",
        cardBrand: "visa",
        cardLast4: "9995",
      },
    });
    await onChargeFailed(p.id);
    await onChargeFailed(p.id); // one email per failure
    const emails = await byKey(`charge-failed:${p.id}:`);
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email.subject).toBe(`Action needed: your $9.00 payment for "${c.title}" didn't go through`);
    expect(email.text).not.toContain("Good news");
    expect(email.text).toContain(
      "We tried to charge your Visa ending in 9995 $9.00, and it didn't work: The card doesn't have enough funds.",
    );
    expect(email.text).toContain(`Pay $9.00: http://localhost:3000/pledges/${p.id}/pay`);
    expect(email.html).toContain("Your payment didn&#39;t go through");
    expect(email.html).toContain('<p style="margin:0 0 8px;font-weight:700;color:#4338ca">PactNexus</p>');
  });
});
