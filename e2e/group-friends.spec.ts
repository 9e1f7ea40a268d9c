import crypto from "node:crypto";
import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

/* Issue 37 item 1, named friends: the holder of a group names a friend for a guest seat from the event
   page; the friend follows the emailed link (read from the outbox), signs in, claims the seat and sees
   their own ticket; the ticket the holder could have printed for that seat no longer admits. */

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  test.describe(`named friends at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the holder invites a friend, who claims the seat and sees their ticket", async ({ page }) => {
      const t = crypto.randomBytes(3).toString("hex");
      const event = await createCampaign({
        title: `Group picnic ${t}`,
        goal: 3,
        attendeesAnonymous: false,
        startsAt: new Date(Date.now() + 10 * 86_400_000),
        venue: "Riverside Park",
      });
      await sql().query(`UPDATE "Campaign" SET "maxSeats" = 3 WHERE id = $1`, [event.id]);
      const holder = await createUser({ name: `Hana ${t}` });
      const friend = await createUser({ name: `Finn ${t}`, email: `finn-${t}@example.test` });

      // the holder commits for three: the goal is met, every seat confirmed
      await loginAs(page, holder);
      await page.goto(`/campaign/${event.id}`);
      await page.getByRole("button", { name: "Commit", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Confirm Your Commitment" });
      await dialog.getByRole("button", { name: "Me + 2" }).click();
      await dialog.getByRole("button", { name: "Yes, I'm In!" }).click();
      const result = page.getByRole("dialog", { name: "Event Confirmed!" });
      await expect(result).toBeVisible();
      await result.getByRole("button", { name: "Close", exact: true }).last().click();

      // names a friend for the first guest seat
      await page.goto(`/campaign/${event.id}`);
      await expect(page.getByTestId("my-seats")).toHaveText("You and 2 guests");
      await page.getByTestId("invite-guests").click();
      await page.getByTestId("invite-email-1").fill(friend.email);
      await page.getByTestId("invite-send-1").click();
      await expect(
        page.getByRole("status").filter({ hasText: `Invitation sent to ${friend.email}` }),
      ).toBeVisible();
      await expect(page.getByText(`invited: ${friend.email}`)).toBeVisible();
      if (process.env.FRIENDS_SHOTS)
        await page.screenshot({
          path: `${process.env.FRIENDS_SHOTS}/invite-${viewport.width}.png`,
          fullPage: true,
        });

      const { rows: seat } = await sql().query(
        `SELECT p.id, t.code FROM "Pledge" p JOIN "Ticket" t ON t."pledgeId" = p.id
         WHERE p."campaignId" = $1 AND p."userId" = $2 AND p."guestSlot" = 1`,
        [event.id, holder.id],
      );
      expect(seat).toHaveLength(1);
      const { rows: mail } = await sql().query(
        `SELECT text FROM "EmailOutbox" WHERE "toEmail" = $1 AND "dedupeKey" LIKE 'seat-invite:%'`,
        [friend.email],
      );
      expect(mail).toHaveLength(1);
      const link = /\/claim\/[A-Za-z0-9_-]+/.exec(mail[0].text)![0];

      // the friend follows the link: signed out, they are asked to sign in and come back to it
      await page.waitForLoadState("networkidle");
      await page.goto("about:blank");
      await page.context().clearCookies();
      await page.goto(link);
      await expect(page).toHaveURL(/\/profile\?next=%2Fclaim%2F/);
      await loginAs(page, friend);
      await page.goto(link);
      await expect(page.getByRole("heading", { level: 1, name: "Claim your seat" })).toBeVisible();
      if (process.env.FRIENDS_SHOTS)
        await page.screenshot({ path: `${process.env.FRIENDS_SHOTS}/claim-${viewport.width}.png` });
      await page.getByTestId("claim-seat").click();
      await expect(page.getByTestId("claim-done")).toBeVisible();

      // the seat is theirs, with a re-issued ticket (the code the holder could have printed is gone)
      const { rows: after } = await sql().query(
        `SELECT p."userId", p."guestSlot", t.code FROM "Pledge" p JOIN "Ticket" t ON t."pledgeId" = p.id WHERE p.id = $1`,
        [seat[0].id],
      );
      expect(after[0]).toMatchObject({ userId: friend.id, guestSlot: 0 });
      expect(after[0].code).not.toBe(seat[0].code);
      await page.getByRole("link", { name: "View the event" }).click();
      const ticket = page.getByRole("region", { name: "Your ticket" });
      await expect(ticket.getByTestId("ticket-code")).toHaveText(
        `${after[0].code.slice(0, 4)}-${after[0].code.slice(4)}`,
      );

      // the link works once
      await page.goto(link);
      await expect(page.getByTestId("claim-refused")).toHaveText(
        "This seat was already claimed. Each link works once.",
      );
    });
  });
}
