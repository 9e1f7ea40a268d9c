import crypto from "node:crypto";
import { createCampaign, createUser, expect, loginAs, sql, test, type TestUser } from "./fixtures";

/*
 * Issue 34 item 2: the backer's own state, everywhere. A given-up paid place stays in My commitments
 * with its refund (waiting for the place to be taken, then refunded on a date); a conditional backer
 * sees "Counts when N are in" with the count now, not a green "You're in"; the commit dialog offers a
 * condition only where it means something. At a phone's width and a desktop's.
 */

/** A saved demo card of `user` (the demo gateway charges it: DESIGN §1 demo payments). */
async function demoCard(user: TestUser): Promise<string> {
  const pm = `pm_demo_e2e_${crypto.randomBytes(6).toString("hex")}`;
  await sql().query(
    `INSERT INTO "DemoPaymentMethod" (id, "userId", brand, last4, "expMonth", "expYear", behavior) VALUES ($1, $2, 'visa', '4242', 12, 2034, 'ok')`,
    [pm, user.id],
  );
  return pm;
}

/**
 * A confirmed paid event with one place, taken and paid for by `holder` (a payment the demo gateway
 * made, with its money row, so it can be refunded), and `waiter` first in line with a saved card.
 */
async function fullPaidEvent(t: string, holder: TestUser, waiter: TestUser) {
  const { id, title } = await createCampaign({
    title: `Rooftop supper ${t}`,
    status: "charged",
    goal: 1,
    ticketPriceCents: 3500,
    deadline: new Date(Date.now() + 2 * 86400_000),
    startsAt: new Date(Date.now() + 5 * 86400_000),
    timeZone: "America/New_York",
    venue: "The back room",
    area: "Lower East Side",
    address: "12 Secret Street",
    addressPrivate: true,
  });
  const pledgeId = `pl${t}hold`;
  const pm = await demoCard(holder);
  const pi = `pi_demo_e2e_${t}`;
  await sql().query(
    `INSERT INTO "DemoPaymentIntent" (id, "idempotencyKey", "paymentMethodId", "amountCents", status) VALUES ($1, $2, $3, 3500, 'succeeded')`,
    [pi, `pledge-${pledgeId}-attempt-1`, pm],
  );
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4",
       charged, verified, "chargeStatus", "chargeType", "chargedAt", "paymentIntentId", "chargeAttempts", "createdAt")
     VALUES ($1, $2, $3, $4, 3500, $5, 'visa', '4242', true, true, 'succeeded', 'paid', now(), $6, 1, now() - interval '1 day')`,
    [pledgeId, id, holder.id, holder.name, pm, pi],
  );
  await sql().query(
    `INSERT INTO "MoneyMovement" (kind, purpose, state, "amountCents", "providerId", "idempotencyKey", "campaignId", "pledgeId", "updatedAt")
     VALUES ('charge', 'ticket', 'succeeded', 3500, $1, $2, $3, $4, now())`,
    [pi, `pledge-${pledgeId}-attempt-1`, id, pledgeId],
  );
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4", "waitlistedAt", "createdAt")
     VALUES ($1, $2, $3, $4, 3500, $5, 'visa', '4242', now() - interval '1 hour', now() - interval '1 hour')`,
    [`pl${t}wait`, id, waiter.id, waiter.name, await demoCard(waiter)],
  );
  await sql().query(
    `UPDATE "Campaign" SET capacity = 1, "committedCount" = 1, "pledgeCount" = 1, "waitlistCount" = 1, "totalCharged" = 1,
       "totalChargedCents" = 3500, "raisedCents" = 3500, "chargeType" = 'paid', "fundedAt" = now() - interval '1 day',
       "chargedAt" = now() - interval '1 day' WHERE id = $1`,
    [id],
  );
  return { id, title, pledgeId };
}

/** A free event with goal 8: six firm commitments in, and `backer` holding a place on "count me once 8 are in". */
async function conditionalEvent(t: string, backer: TestUser) {
  const { id, title } = await createCampaign({ title: `Lake swim ${t}`, goal: 8 });
  for (let i = 0; i < 6; i++) {
    const u = await createUser({ name: `Swimmer ${i} ${t}` });
    await sql().query(
      `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "createdAt") VALUES ($1, $2, $3, $4, now() - interval '2 hours')`,
      [`pl${t}f${i}`, id, u.id, u.name],
    );
  }
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "minPeople", "createdAt") VALUES ($1, $2, $3, $4, 8, now() - interval '1 hour')`,
    [`pl${t}cond`, id, backer.id, backer.name],
  );
  await sql().query(
    `UPDATE "Campaign" SET "hasConditions" = true, "committedCount" = 6, "pledgeCount" = 7 WHERE id = $1`,
    [id],
  );
  return { id, title };
}

for (const [name, viewport] of [
  ["phone", { width: 375, height: 812 }],
  ["desktop", { width: 1440, height: 900 }],
] as const) {
  test.describe(`the backer's own state (${name}, ${viewport.width} px)`, () => {
    test.use({ viewport });

    test("after giving up a paid place, My commitments keeps the event with its refund: waiting, then refunded on a date", async ({
      page,
    }, testInfo) => {
      test.setTimeout(180_000);
      const t = crypto.randomBytes(3).toString("hex");
      const holder = await createUser({ name: `Hana ${t}` });
      const waiter = await createUser({ name: `Wim ${t}` });
      const { id, title, pledgeId } = await fullPaidEvent(t, holder, waiter);
      await loginAs(page, holder);

      // before: the date in the event's zone, the attendee-only address, the amount, the badges, a readable receipt
      await page.goto("/profile");
      const section = page.getByRole("region", { name: "My commitments" });
      const card = section.getByRole("listitem").filter({ hasText: title });
      await expect(card).toContainText("Starts");
      await expect(card).toContainText(/E[SD]T/);
      await expect(card).toContainText("The back room, 12 Secret Street");
      await expect(card).toContainText("$35.00");
      await expect(card).toContainText("Confirmed");
      await expect(card).toContainText(/Receipt\s*PN-[0-9A-Z]{4}-[0-9A-Z]{4}/);
      await expect(card).not.toContainText("pi_");

      await page.goto(`/campaign/${id}`);
      const mine = page.getByLabel("Your commitment");
      await mine.getByRole("button", { name: "Give up my place" }).click();
      await page
        .getByRole("dialog", { name: "Give up your place?" })
        .getByRole("button", { name: "Give up my place" })
        .click();
      await expect(page.getByRole("status").filter({ hasText: "You gave up your place." })).toBeVisible();

      // a confirmed event offers no condition (it would count at once): the waitlist dialog has none
      await page.getByRole("button", { name: "Join the waitlist" }).first().click();
      const join = page.getByRole("dialog", { name: "Join the Waitlist" });
      await expect(join).toBeVisible();
      await expect(join.getByLabel("Only count me if enough others come")).toHaveCount(0);
      await join.getByRole("button", { name: "Cancel" }).click();

      // the event stays listed, as given up (no "Active", no address), with its refund's state
      await page.goto("/profile");
      await expect(card).toContainText("Gave up place");
      await expect(card).toContainText("Gave up your place on");
      await expect(card).not.toContainText("Active");
      await expect(card).not.toContainText("12 Secret Street");
      await expect(card).toContainText("The back room, Lower East Side");
      await expect(card).toContainText(
        /Refund of \$35\.00 to Visa ·4242: (waiting for your place to be taken|on its way)|Refunded \$35\.00 to Visa ·4242 on/,
      );
      await page.screenshot({ path: testInfo.outputPath(`gave-up-${name}.png`), fullPage: true });

      // the waiter is charged by the charging job, then the refund sweeper (every minute) refunds the giver
      await expect
        .poll(
          async () => {
            await page.reload();
            return (await card.textContent()) ?? "";
          },
          { timeout: 150_000, intervals: [5_000] },
        )
        .toContain("Refunded $35.00 to Visa ·4242 on");
      // the date in the viewer's own zone (the browser's: Asia/Kathmandu here), with its abbreviation
      await expect(card).toContainText(
        /Refunded \$35\.00 to Visa ·4242 on \w{3}, \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M\sGMT\+5:45/,
      );
      await page.screenshot({ path: testInfo.outputPath(`refunded-${name}.png`), fullPage: true });
      const { rows } = await sql().query(
        `SELECT subject FROM "EmailOutbox" WHERE "dedupeKey" = $1 AND "toEmail" = $2`,
        [`refunded:${pledgeId}`, holder.email],
      );
      expect(rows).toEqual([{ subject: `Refunded: $35.00 for "${title}"` }]);
    });

    test("a conditional backer's event page says 'Counts when 8 are in · 6 are in now', not 'You're in'; a condition at or below the members is refused in the dialog", async ({
      page,
    }, testInfo) => {
      const t = crypto.randomBytes(3).toString("hex");
      const backer = await createUser({ name: `Cleo ${t}` });
      const { id, title } = await conditionalEvent(t, backer);
      await loginAs(page, backer);
      await page.goto(`/campaign/${id}`);
      const panel = page.getByRole("region", { name: "Commit" });
      await expect(panel.getByRole("button", { name: "Counts when 8 are in · 6 are in now" })).toBeVisible();
      await expect(panel.getByRole("button", { name: "You're in" })).toHaveCount(0);
      await expect(page.getByLabel("Your commitment")).toContainText("Counts when 8 are in · 6 are in now");
      await page.screenshot({ path: testInfo.outputPath(`conditional-${name}.png`), fullPage: true });

      await page.goto("/profile");
      const card = page
        .getByRole("region", { name: "My commitments" })
        .getByRole("listitem")
        .filter({ hasText: title });
      await expect(card).toContainText("Not counted yet");
      await expect(card).toContainText("Counts when 8 are in · 6 are in now");
      await expect(card).toContainText("Free");

      // someone else, committing: a condition of 6 would hold at once, so the dialog refuses it
      await loginAs(page, await createUser({ name: `Newt ${t}` }));
      await page.goto(`/campaign/${id}`);
      await page
        .getByRole("region", { name: "Commit" })
        .getByRole("button", { name: "Commit", exact: true })
        .click();
      const dialog = page.getByRole("dialog", { name: "Confirm Your Commitment" });
      await dialog.getByLabel("Only count me if enough others come").check();
      await expect(dialog).toContainText("6 people are in now, so choose more than 6.");
      await dialog.getByLabel("Count me once at least this many people are in (me included)").fill("6");
      await dialog.getByRole("button", { name: "Yes, I'm In!" }).click();
      await expect(dialog).toContainText(
        "6 people are in already, so a condition of 6 or fewer would hold at once. Choose more than 6, or commit without a condition.",
      );
      await expect(dialog).toBeVisible();
    });
  });
}
