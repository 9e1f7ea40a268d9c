import crypto from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { PAGES } from "../tests/security/registry";
import { createCampaign, createUser, expect, loginAs, sql, test, type TestUser } from "./fixtures";

/**
 * The accessibility gate (issue 17): axe (WCAG 2.1 A and AA) on every page of the registry — the
 * same list the privacy matrix walks, so a new page is checked without touching this file — as a
 * visitor, a backer, the organizer and an admin. Any violation fails. Every page has one h1.
 */

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
type Role = "visitor" | "backer" | "organizer" | "admin";

test("every page passes axe (WCAG 2.1 A/AA) and has one h1, for every role", async ({ page }) => {
  // 56 page visits with axe: about 1.5 min on this machine, over 5 min when it is loaded
  test.setTimeout(900_000);
  const t = crypto.randomBytes(3).toString("hex");
  const organizer = await createUser({ name: `Ola ${t}` });
  const backer = await createUser({ name: `Bea ${t}` });
  const admin = await createUser({ name: `Adi ${t}`, isAdmin: true });
  const { id: campaignId } = await createCampaign({
    creator: organizer,
    title: `Accessible event ${t}`,
    ticketPriceCents: 1200,
    startsAt: new Date(Date.now() + 10 * 86400_000),
    timeZone: "America/New_York",
    venue: "Main Hall",
    address: "1 Main St",
    addressPrivate: true,
    area: "Downtown",
  });
  const pledgeId = `pl${crypto.randomBytes(10).toString("hex")}`;
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId") VALUES ($1, $2, $3, $4, 1200, 'pm_demo_x')`,
    [pledgeId, campaignId, backer.id, backer.name],
  );
  await sql().query(
    `INSERT INTO "Comment" (id, "campaignId", "authorId", text) VALUES ($1, $2, $3, 'Looking forward to it')`,
    [`cm${t}${crypto.randomBytes(8).toString("hex")}`, campaignId, backer.id],
  );
  await sql().query(`UPDATE "Campaign" SET "committedCount" = 1, "pledgeCount" = 1 WHERE id = $1`, [
    campaignId,
  ]);

  const people: Record<Role, TestUser | null> = { visitor: null, backer, organizer, admin };
  const problems: string[] = [];
  for (const role of Object.keys(people) as Role[]) {
    await page.context().clearCookies();
    if (people[role]) await loginAs(page, people[role]!);
    for (const entry of PAGES) {
      if (!entry.path || entry.file.endsWith("opengraph-image.tsx")) continue;
      const url = entry.path({ campaignId, pledgeId });
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      const h1s = await page.locator("h1").count();
      if (h1s !== 1) problems.push(`${role} ${url}: ${h1s} h1 elements`);
      const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
      for (const v of violations)
        problems.push(
          `${role} ${url}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join("; ")}`,
        );
    }
  }
  expect(problems, problems.join("\n")).toEqual([]);
});

test("the gate can fail: axe reports a button without a name", async ({ page }) => {
  await page.setContent(`<html lang="en"><body><main><h1>x</h1><button></button></main></body></html>`);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(violations.map((v) => v.id)).toContain("button-name");
});
