import crypto from "node:crypto";
import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

/**
 * Issue 34 item 3, the organizer's story at 375 px and 1440 px: a rejected event shows its reason
 * and is edited and resubmitted back to pending; a cancellation's reason reaches a backer on the
 * event page; a paid event's organizer is told it goes live once payouts are set up.
 */
const rid = () => crypto.randomBytes(10).toString("hex");

for (const [label, viewport] of [
  ["phone", { width: 375, height: 812 }],
  ["desktop", { width: 1440, height: 900 }],
] as const) {
  test.describe(`the organizer's story (${label})`, () => {
    test.use({ viewport });

    test("rejected → reason shown → edit and resubmit → pending", async ({ page }) => {
      const admin = await createUser({ name: "Ada Admin", isAdmin: true });
      const organizer = await createUser({ name: "Rita Rejected" });
      const event = await createCampaign({
        creator: organizer,
        approvalStatus: "rejected",
        startsAt: new Date(Date.now() + 10 * 86_400_000),
      });
      await sql().query(
        `INSERT INTO "ModerationLog" (id, "campaignId", "actorId", "fromStatus", "toStatus", reason)
         VALUES ($1, $2, $3, 'pending', 'rejected', 'Please add the venue <b>address</b>.')`,
        [`ml${rid()}`, event.id, admin.id],
      );
      await loginAs(page, organizer);
      await page.goto(`/campaign/${event.id}`);
      const notice = page.getByTestId("rejection-notice");
      await expect(notice).toContainText("Event rejected");
      await expect(notice).toContainText("Please add the venue <b>address</b>.");
      await expect(notice).toContainText("You can resubmit it 3 more times.");
      await notice.getByRole("link", { name: "Edit and resubmit" }).click();
      await expect(page).toHaveURL(new RegExp(`/campaign/${event.id}/edit$`));
      await page.getByLabel(/^Title/).fill(`${event.title} at the Town Hall`);
      await page.getByRole("button", { name: "Save and resubmit" }).click();
      await expect(page.getByText("waiting for an admin's review again")).toBeVisible();
      const { rows } = await sql().query(
        `SELECT "approvalStatus"::text AS s, "resubmitCount" AS n FROM "Campaign" WHERE id = $1`,
        [event.id],
      );
      expect(rows[0]).toEqual({ s: "pending", n: 1 });
      await page.goto(`/campaign/${event.id}`);
      await expect(page.getByText("Pending approval")).toBeVisible();
      await expect(page.getByTestId("rejection-notice")).toHaveCount(0);
      await page.screenshot({
        path: `test-results/story-organizer-resubmitted-${label}.png`,
        fullPage: true,
      });
    });

    test("cancel with a reason, asked first; a backer reads the reason on the event page", async ({
      page,
      browser,
    }) => {
      const organizer = await createUser({ name: "Carla Cancels" });
      const backer = await createUser({ name: "Bob Backer" });
      const event = await createCampaign({ creator: organizer, goal: 5 });
      await sql().query(
        `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents") VALUES ($1, $2, $3, $4, 0)`,
        [`pl${rid()}`, event.id, backer.id, backer.name],
      );
      await loginAs(page, organizer);
      await page.goto(`/campaign/${event.id}`);
      await page.getByRole("button", { name: "Cancel event" }).click();
      const dialog = page.getByRole("dialog", { name: "Cancel this event?" });
      await expect(dialog).toBeVisible();
      // asking first: keeping the event changes nothing
      await dialog.getByRole("button", { name: "Keep the event" }).click();
      await expect(dialog).toHaveCount(0);
      await page.getByRole("button", { name: "Cancel event" }).click();
      await dialog
        .getByLabel("Reason (optional, shown to backers)")
        .fill("The venue flooded & we can't reopen.");
      await dialog.getByRole("button", { name: "Cancel event" }).click();
      await expect(page.getByText("The organizer cancelled this event.")).toBeVisible();

      const context = await browser.newContext({ viewport });
      const backerPage = await context.newPage();
      await loginAs(backerPage, backer);
      await backerPage.goto(`/campaign/${event.id}`);
      await expect(backerPage.getByText("The organizer cancelled this event.")).toBeVisible();
      await expect(backerPage.getByText("The venue flooded & we can't reopen.")).toBeVisible();
      await backerPage.screenshot({
        path: `test-results/story-organizer-cancelled-${label}.png`,
        fullPage: true,
      });
      await context.close();
    });

    test("a paid event waiting for payouts says so on the event and manage pages, with the way to /payouts", async ({
      page,
    }) => {
      const organizer = await createUser({ name: "Paula Paid" });
      const event = await createCampaign({
        creator: organizer,
        approvalStatus: "pending",
        ticketPriceCents: 1500,
      });
      await loginAs(page, organizer);
      await page.goto(`/campaign/${event.id}`);
      const notice = page.getByTestId("payouts-setup-notice");
      await expect(notice).toContainText("A paid event goes live once your payouts are set up");
      await page.screenshot({
        path: `test-results/story-organizer-payouts-notice-${label}.png`,
        fullPage: true,
      });
      await page.goto(`/campaign/${event.id}/manage`);
      await expect(page.getByTestId("payouts-setup-notice")).toBeVisible();
      await page
        .getByTestId("payouts-setup-notice")
        .getByRole("link", { name: /Set up payouts/ })
        .click();
      await expect(page).toHaveURL(/\/payouts$/);
    });
  });
}
