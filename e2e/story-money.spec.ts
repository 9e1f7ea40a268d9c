import crypto from "node:crypto";
import { createCampaign, createUser, expect, fillCard, loginAs, sql, test, type TestUser } from "./fixtures";

/*
 * Issue 34 item 1, "money said once, said right": on a paid event with the early go-ahead on, the price
 * box, the commit dialog (confirm, payment step, result) and — once the organizer goes ahead with 4 of
 * 5 — the event page, the manage page and the emails tell the same money story: charged the moment the
 * goal is met or the organizer goes ahead, never "charged only if 5" beside "may go ahead from 4", and
 * a go-ahead is never "threshold reached" / "reached its goal".
 */

async function pledge(campaignId: string, user: TestUser) {
  const id = `pl${crypto.randomBytes(8).toString("hex")}`;
  const pm = `pm_demo_e2e_${crypto.randomBytes(6).toString("hex")}`;
  await sql().query(
    `INSERT INTO "DemoPaymentMethod" (id, "userId", brand, last4, "expMonth", "expYear", behavior) VALUES ($1, $2, 'visa', '4242', 12, 2034, 'ok')`,
    [pm, user.id],
  );
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4", "createdAt")
     VALUES ($1, $2, $3, $4, (SELECT "ticketPriceCents" FROM "Campaign" WHERE id = $2), $5, 'visa', '4242', now() - interval '1 hour')`,
    [id, campaignId, user.id, user.name, pm],
  );
}

const chargedIn = async (campaignId: string) =>
  (
    await sql().query(
      `SELECT count(*) FILTER (WHERE "chargeStatus" = 'succeeded')::int AS n FROM "Pledge" WHERE "campaignId" = $1`,
      [campaignId],
    )
  ).rows[0].n as number;

const GO_AHEAD = "The organizer may go ahead from 4 people (80% of the goal).";
const IF_THEY_DO = "If they do, you're charged $15.00 at once, as when the goal is met.";
const WHEN_CHARGED =
  "Your card is charged $15.00 the moment the goal is met or the organizer goes ahead, if that happens by the deadline.";
const WRONG =
  /as if the goal were met|threshold was reached|Threshold reached|reached its goal|charged only if the event reaches its goal/;

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  test.describe(`money said once at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("price box, commit dialog, event page, manage page and emails agree on a go-ahead event", async ({
      page,
      browser,
    }) => {
      test.setTimeout(300_000);
      const t = crypto.randomBytes(3).toString("hex");
      const organizer = await createUser({ name: `Olga ${t}` });
      const title = `Nearly dinner ${t}`;
      const { id } = await createCampaign({ creator: organizer, title, goal: 5, ticketPriceCents: 1500 });
      for (let i = 0; i < 3; i++) await pledge(id, await createUser({ name: `Backer ${i} ${t}` }));
      await sql().query(
        `UPDATE "Campaign" SET "earlyGoAhead" = true, "committedCount" = 3, "pledgeCount" = 3 WHERE id = $1`,
        [id],
      );

      // the price box: charged only if the goal is met, at that moment, and the go-ahead in the same sentence
      const fourth = await createUser({ name: `Fourth ${t}` });
      await loginAs(page, fourth);
      await page.goto(`/campaign/${id}`);
      const box = page.getByText(/^You're charged \$15\.00 only if the goal of 5 people is met by /);
      await expect(box).toBeVisible();
      await expect(box).toContainText("and at once, the moment it is.");
      await expect(box).toContainText(`${GO_AHEAD} ${IF_THEY_DO} Otherwise nobody pays.`);
      await expect(page.getByText(GO_AHEAD)).toHaveCount(1); // said once on the page
      await expect(page.getByText(WRONG)).toHaveCount(0);

      // the commit dialog says the same sentence, and the refund rules
      await page.getByRole("button", { name: "Commit", exact: true }).click();
      const confirm = page.getByRole("dialog", { name: "Confirm Your Commitment" });
      await expect(confirm).toContainText(`${GO_AHEAD} ${IF_THEY_DO}`);
      await expect(confirm).toContainText(
        "You can withdraw until the goal is met or the organizer goes ahead, and nothing is charged.",
      );
      await expect(confirm).toContainText("you're refunded in full once they have paid");
      await expect(confirm).toContainText("you may withdraw within 7 days");
      await expect(confirm).not.toContainText(WRONG);
      await expect(confirm).not.toContainText("only if the threshold is met");
      await page.screenshot({ path: test.info().outputPath(`commit-dialog-${viewport.width}.png`) });
      await confirm.getByRole("button", { name: "Yes, I'm In!" }).click();
      const payment = page.getByRole("dialog", { name: "Save Payment Method" });
      await expect(payment).toContainText(WHEN_CHARGED);
      await fillCard(page, "4242 4242 4242 4242");
      const result = page.getByRole("dialog", { name: "You're Committed!" });
      await expect(result).toContainText(WHEN_CHARGED);
      await result.getByRole("button", { name: "Close", exact: true }).last().click();

      // the organizer goes ahead with 4 of 5
      const orgPage = await (await browser.newContext({ viewport })).newPage();
      await loginAs(orgPage, organizer);
      await orgPage.goto(`/campaign/${id}/manage`);
      await orgPage.getByRole("button", { name: "Go ahead with 4 people" }).click();
      const dialog = orgPage.getByRole("dialog", { name: "Go ahead with the event?" });
      await expect(dialog).toContainText("Each of them is charged $15.00 now, as when a goal is met");
      await dialog.getByRole("button", { name: "Go ahead with 4" }).click();
      await expect(orgPage.getByRole("button", { name: "Go ahead with 4 people" })).toBeHidden();
      await expect.poll(() => chargedIn(id), { timeout: 60_000 }).toBe(4);

      // the manage page and the event page: going ahead by the organizer's choice, never "threshold reached"
      await orgPage.goto(`/campaign/${id}/manage`);
      const banner = orgPage.getByRole("status").filter({ hasText: "Going ahead: the organizer chose it" });
      await expect(banner).toContainText("reached 4 of the 5 people it aimed for");
      await expect(orgPage.getByText(WRONG)).toHaveCount(0);
      await orgPage.screenshot({
        path: test.info().outputPath(`manage-${viewport.width}.png`),
        fullPage: true,
      });

      await page.goto(`/campaign/${id}`);
      await expect(page.getByText("Going ahead: the organizer chose it")).toBeVisible();
      await expect(page.getByText("reached 4 of the 5 people it aimed for")).toBeVisible();
      await expect(
        page.getByText("Going ahead by the organizer's choice, with 4 of the 5 people it aimed for."),
      ).toBeVisible();
      await expect(page.getByText(WRONG)).toHaveCount(0);
      await expect(page.getByText("Otherwise nobody pays")).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath(`event-${viewport.width}.png`), fullPage: true });

      // the emails: the organizer's says going ahead (queued by the email job), each backer gets one
      const subjects = async (email: string) =>
        (
          await sql().query(
            `SELECT subject, text FROM "EmailOutbox" WHERE "toEmail" = $1 AND subject LIKE $2`,
            [email, `%${title}%`],
          )
        ).rows as { subject: string; text: string }[];
      await expect
        .poll(async () => (await subjects(organizer.email)).map((m) => m.subject), { timeout: 120_000 })
        .toContain(`"${title}" is going ahead`);
      for (const m of await subjects(organizer.email)) expect(m.text).not.toMatch(WRONG);
      const mine = (await subjects(fourth.email)).filter((m) => !m.subject.startsWith("You're committed"));
      expect(mine.map((m) => m.subject)).toEqual([`"${title}" is going ahead`]);
      expect(mine[0].text).not.toMatch(WRONG);
      const { rows } = await sql().query(
        `SELECT o.subject FROM "EmailOutbox" o JOIN "Pledge" p ON p."campaignId" = $1
           JOIN "User" u ON u.id = p."userId" AND u.email = o."toEmail"
         WHERE o."dedupeKey" LIKE 'confirmed:%' OR o.subject LIKE 'Event Confirmed!%'`,
        [id],
      );
      expect(rows.filter((r) => (r.subject as string).includes(title))).toHaveLength(4);
      expect(rows.some((r) => (r.subject as string).startsWith("Event Confirmed!"))).toBe(false);
    });
  });
}
