import crypto from "node:crypto";
import { createCampaign, createUser, expect, fillCard, loginAs, sql, test, type TestUser } from "./fixtures";

/* Issue 21: personal thresholds (the cascade) and the early go-ahead. */

async function pledge(campaignId: string, user: TestUser, opts: { minPeople?: number; card?: boolean } = {}) {
  const id = `pl${crypto.randomBytes(8).toString("hex")}`;
  let pm: string | null = null;
  if (opts.card) {
    pm = `pm_demo_e2e_${crypto.randomBytes(6).toString("hex")}`;
    await sql().query(
      `INSERT INTO "DemoPaymentMethod" (id, "userId", brand, last4, "expMonth", "expYear", behavior) VALUES ($1, $2, 'visa', '4242', 12, 2034, 'ok')`,
      [pm, user.id],
    );
  }
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4", "minPeople", "createdAt")
     VALUES ($1, $2, $3, $4, (SELECT "ticketPriceCents" FROM "Campaign" WHERE id = $2), $5, $6, $7, $8, now() - interval '1 hour')`,
    [id, campaignId, user.id, user.name, pm, pm ? "visa" : null, pm ? "4242" : null, opts.minPeople ?? null],
  );
  return id;
}

/** Pledges of the event charged so far (the charging job runs in the server). */
const chargedIn = async (campaignId: string) =>
  (
    await sql().query(
      `SELECT count(*) FILTER (WHERE "chargeStatus" = 'succeeded')::int AS n FROM "Pledge" WHERE "campaignId" = $1`,
      [campaignId],
    )
  ).rows[0].n as number;

test("an event tips through the cascade: its firm commitment alone falls short, the conditions carry it", async ({
  page,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const { id } = await createCampaign({ title: `Cascade picnic ${t}`, goal: 3, ticketPriceCents: 800 });
  await pledge(id, await createUser({ name: `Firm ${t}` }), { card: true });
  await pledge(id, await createUser({ name: `Maybe ${t}` }), { card: true, minPeople: 3 });
  await sql().query(
    `UPDATE "Campaign" SET "hasConditions" = true, "committedCount" = 1, "pledgeCount" = 2 WHERE id = $1`,
    [id],
  );

  const backer = await createUser({ name: `Joiner ${t}` });
  await loginAs(page, backer);
  await page.goto(`/campaign/${id}`);
  await expect(page.getByText("1 / 3 attendees").first()).toBeVisible();
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm Your Commitment" });
  await confirm.getByLabel("Only count me if enough others come").check();
  await confirm.getByLabel("Count me once at least this many people are in (me included)").fill("3");
  await confirm.getByRole("button", { name: "Yes, I'm In!" }).click();
  await fillCard(page, "4242 4242 4242 4242");
  // with this condition, three conditions hold at once: 3 of 3, the event tips
  await expect(page.getByRole("dialog", { name: "Event Confirmed!" })).toBeVisible();
  await expect.poll(() => chargedIn(id), { timeout: 60_000 }).toBe(3);
});

test("an organizer who opted in goes ahead at 80% of the goal: members are charged and the page says the organizer chose it", async ({
  page,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const organizer = await createUser({ name: `Oona ${t}` });
  const { id } = await createCampaign({
    creator: organizer,
    title: `Almost there ${t}`,
    goal: 5,
    ticketPriceCents: 1500,
  });
  for (let i = 0; i < 4; i++)
    await pledge(id, await createUser({ name: `Backer ${i} ${t}` }), { card: true });
  await sql().query(
    `UPDATE "Campaign" SET "earlyGoAhead" = true, "committedCount" = 4, "pledgeCount" = 4 WHERE id = $1`,
    [id],
  );

  // before anyone goes ahead, the event page says the organizer may
  await page.goto(`/campaign/${id}`);
  await expect(page.getByText("The organizer may go ahead from 4 people (80% of the goal).")).toBeVisible();

  await loginAs(page, organizer);
  await page.goto(`/campaign/${id}/manage`);
  await page.getByRole("button", { name: "Go ahead with 4 people" }).click();
  const dialog = page.getByRole("dialog", { name: "Go ahead with the event?" });
  await expect(dialog).toContainText("Each of them is charged $15.00 now");
  await dialog.getByRole("button", { name: "Go ahead with 4" }).click();
  await expect(page.getByRole("button", { name: "Go ahead with 4 people" })).toBeHidden();

  await expect.poll(() => chargedIn(id), { timeout: 60_000 }).toBe(4);
  await page.goto(`/campaign/${id}`);
  await expect(page.getByText("Going ahead: the organizer chose it")).toBeVisible();
  await expect(page.getByText("reached 4 of the 5 people it aimed for")).toBeVisible();
});
