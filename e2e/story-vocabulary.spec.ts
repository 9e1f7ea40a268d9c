import { createCampaign, createUser, expect, loginAs, test } from "./fixtures";

/**
 * Issue 34.5: one status word per state, on the phone and on the desktop. The "Confirmed" filter
 * shows the events badged Confirmed; an admin sees a rejected event badged REJECTED, never Active;
 * an organizer's pending event reads PENDING on the profile as on its page; the roadmap marks live
 * stages Live.
 */
for (const [name, viewport] of [
  ["phone", { width: 375, height: 812 }],
  ["desktop", { width: 1440, height: 900 }],
] as const) {
  test.describe(`one vocabulary (${name})`, () => {
    test.use({ viewport });

    test("filters, badges and the roadmap speak one word per state", async ({ page }) => {
      const stamp = `${name} ${Date.now()}`;
      const organizer = await createUser({ name: "Vocabulary Organizer" });
      const confirmed = await createCampaign({ title: `Confirmed supper ${stamp}`, status: "charged" });
      const open = await createCampaign({ title: `Open supper ${stamp}` });
      const rejected = await createCampaign({
        title: `Rejected supper ${stamp}`,
        approvalStatus: "rejected",
      });
      const pending = await createCampaign({
        title: `Pending supper ${stamp}`,
        approvalStatus: "pending",
        creator: organizer,
      });

      await page.goto("/?filter=funded");
      const filters = page.getByRole("navigation", { name: "Filter events" });
      await expect(filters.getByRole("link", { name: "Confirmed" })).toHaveAttribute("aria-current", "page");
      await expect(filters.getByText("Funded")).toHaveCount(0);
      const card = page.getByRole("article").filter({ hasText: confirmed.title });
      await expect(card.getByText("Confirmed", { exact: true })).toBeVisible();
      await expect(page.getByRole("article").filter({ hasText: open.title })).toHaveCount(0);

      await page.goto("/roadmap");
      const stage = page.getByRole("listitem").filter({ hasText: "Variable thresholds" });
      await expect(stage.getByText("Live", { exact: true })).toBeVisible();
      await expect(page.getByText("Planned", { exact: true })).toHaveCount(0);

      await loginAs(page, organizer);
      await page.goto("/profile");
      const mine = page.getByRole("listitem").filter({ hasText: pending.title });
      await expect(mine.getByText("PENDING", { exact: true })).toBeVisible();
      await expect(mine.getByText("Active", { exact: true })).toHaveCount(0);

      const admin = await createUser({ isAdmin: true });
      await loginAs(page, admin);
      await page.goto(`/admin?q=${encodeURIComponent(stamp)}`);
      const row = page.getByRole("listitem").filter({ hasText: rejected.title });
      await expect(row.getByText("REJECTED", { exact: true })).toBeVisible();
      await expect(row.getByText("Active", { exact: true })).toHaveCount(0);
      await page.goto(`/campaign/${rejected.id}`);
      // the page itself first, so a failure says whether the event page came at all
      await expect(page.getByRole("heading", { name: rejected.title })).toBeVisible();
      await expect(page.getByText("REJECTED", { exact: true }).first()).toBeVisible();
      await expect(page.getByRole("main").getByText("Active", { exact: true })).toHaveCount(0);
    });
  });
}
