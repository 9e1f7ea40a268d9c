import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { createCampaign, createUser, expect, loginAs, sql, test, type TestUser } from "./fixtures";

/* Issue 36 item 3: the show-up deposit after the tip. The organizer checks an attendee in by code and
   the door says their deposit is refunded; that attendee's My commitments says so; another attendee's
   says it is held and until when; the organizer excuses them from the manage page (after a
   confirmation), and their deposit is refunded once. Demo gateway: each place is one demo payment of
   ticket and deposit, with the two money rows the charging run writes. */

const SHOTS = process.env.DEPOSIT_SHOTS;

/**
 * Signs `user` in on `page` after the last person: nothing in flight (a prefetch, the account bar's
 * session refresh) may set the previous person's cookie again (as e2e/tickets.spec does).
 */
async function switchTo(page: Page, user: TestUser) {
  await page.waitForLoadState("networkidle");
  await page.goto("about:blank");
  await page.context().clearCookies();
  await loginAs(page, user);
}

/** A confirmed paid event ($15 + a $10 deposit, in person, started an hour ago) with two charged places. */
async function depositEvent(t: string) {
  const organizer = await createUser({ name: `Olga ${t}` });
  const event = await createCampaign({
    title: `Deposit night ${t}`,
    goal: 2,
    ticketPriceCents: 1500,
    creator: organizer,
    status: "charged",
    deadline: new Date(Date.now() - 86_400_000),
    startsAt: new Date(Date.now() - 3_600_000),
    endsAt: new Date(Date.now() + 2 * 3_600_000),
    timeZone: "America/New_York",
    venue: "The Hall",
  });
  await sql().query(
    `UPDATE "Campaign" SET "depositCents" = 1000, "depositGraceHours" = 24, "committedCount" = 2, "pledgeCount" = 2,
       "fundedAt" = now() - interval '1 day' WHERE id = $1`,
    [event.id],
  );
  const people: Record<string, { user: TestUser; pledgeId: string }> = {};
  for (const name of ["Ada", "Bo"]) {
    const user = await createUser({ name: `${name} ${t}` });
    const pledgeId = `p${crypto.randomBytes(8).toString("hex")}`;
    const pi = `pi_demo_${crypto.randomBytes(8).toString("hex")}`;
    const key = `pledge-${pledgeId}-attempt-1`;
    await sql().query(
      `INSERT INTO "DemoPaymentIntent" (id, "idempotencyKey", "paymentMethodId", "amountCents", status, metadata)
       VALUES ($1, $2, 'pm_demo_e2e', 2500, 'succeeded', $3)`,
      [pi, key, JSON.stringify({ pledgeId, campaignId: event.id, depositCents: "1000" })],
    );
    await sql().query(
      `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", charged, "chargedAt", "chargeType",
         "chargeStatus", "memberSince", "paymentIntentId", "chargeAttempts", "cardBrand", "cardLast4")
       VALUES ($1, $2, $3, $4, 1500, true, now(), 'paid', 'succeeded', now(), $5, 1, 'visa', '4242')`,
      [pledgeId, event.id, user.id, user.name, pi],
    );
    // the charging run's two money rows: the ticket's (with the payment's id) and the deposit's
    await sql().query(
      `INSERT INTO "MoneyMovement" (kind, purpose, state, "amountCents", "providerId", "idempotencyKey", "campaignId", "pledgeId")
       VALUES ('charge', 'ticket', 'succeeded', 1500, $1, $2, $3, $4),
              ('charge', 'deposit', 'succeeded', 1000, NULL, $2 || '-deposit', $3, $4)`,
      [pi, key, event.id, pledgeId],
    );
    people[name] = { user, pledgeId };
  }
  return { organizer, event, people };
}

async function ticketOf(pledgeId: string) {
  const { rows } = await sql().query(
    `SELECT t.code, p."attendeeNumber" AS n FROM "Ticket" t JOIN "Pledge" p ON p.id = t."pledgeId" WHERE p.id = $1`,
    [pledgeId],
  );
  expect(rows).toHaveLength(1);
  return { code: rows[0].code as string, number: rows[0].n as number };
}

/** The deposit refunds recorded for a place, by state. */
async function depositRefunds(pledgeId: string) {
  const { rows } = await sql().query(
    `SELECT state::text, "amountCents"::int AS cents FROM "MoneyMovement" WHERE "pledgeId" = $1 AND kind = 'refund' AND purpose = 'deposit'`,
    [pledgeId],
  );
  return rows as { state: string; cents: number }[];
}

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  test.describe(`deposit surfaces at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("check-in refunds the deposit; My commitments says refunded or held until when; the organizer excuses the other", async ({
      page,
    }) => {
      const t = crypto.randomBytes(3).toString("hex");
      const { organizer, event, people } = await depositEvent(t);

      // the door: Ada by her code — the large answer says her deposit goes back
      await loginAs(page, organizer);
      await page.goto(`/campaign/${event.id}/check-in`);
      const ada = await ticketOf(people.Ada.pledgeId);
      await page.getByLabel("Ticket code").fill(ada.code);
      await page.getByRole("button", { name: "Check in", exact: true }).first().click();
      const answer = page.getByTestId("check-in-answer");
      await expect(answer).toContainText("Checked in");
      await expect(answer).toContainText(`Ada ${t}`);
      await expect(answer).toContainText("Paid $15.00");
      await expect(page.getByTestId("check-in-deposit")).toHaveText("Deposit $10.00 refunded");
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}/deposit-check-in-${viewport.width}.png`, fullPage: true });
      // refunded once, by a partial refund of her payment
      await expect
        .poll(() => depositRefunds(people.Ada.pledgeId))
        .toEqual([{ state: "succeeded", cents: 1000 }]);

      // Ada's My commitments: refunded
      await switchTo(page, people.Ada.user);
      await page.goto("/profile");
      const adaCard = page.getByRole("listitem").filter({ hasText: `Deposit night ${t}` });
      await expect(adaCard.getByTestId("deposit-line")).toHaveText("$10.00 deposit refunded");
      if (SHOTS) await adaCard.screenshot({ path: `${SHOTS}/deposit-mine-refunded-${viewport.width}.png` });

      // Bo's: held, and until when (the end plus the 24-hour grace, in his zone with its abbreviation)
      await switchTo(page, people.Bo.user);
      await page.goto("/profile");
      const boLine = page
        .getByRole("listitem")
        .filter({ hasText: `Deposit night ${t}` })
        .getByTestId("deposit-line");
      await expect(boLine).toContainText("$10.00 deposit held until you check in");
      // the browser's zone (playwright.config: Asia/Kathmandu), with its abbreviation
      await expect(boLine).toContainText(
        /Kept if you have not checked in by \w{3}, \w{3} \d{1,2}, \d{4}, .+ GMT\+5:45$/,
      );
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}/deposit-mine-held-${viewport.width}.png`, fullPage: true });

      // the organizer's Deposits: figures, Bo not checked in, excused after a confirmation
      await switchTo(page, organizer);
      await page.goto(`/campaign/${event.id}/manage`);
      const deposits = page.getByRole("region", { name: "Deposits" });
      await expect(deposits.locator('[data-figure="deposit Held"]')).toContainText("$10.00");
      await expect(deposits.locator('[data-figure="deposit Refunded"]')).toContainText("$10.00");
      const bo = await ticketOf(people.Bo.pledgeId);
      const row = deposits.getByRole("list", { name: "Deposits not checked in" }).getByRole("listitem");
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(`Attendee #${bo.number}`);
      await expect(row).toContainText(`Bo ${t}`);
      await row.getByRole("button", { name: `Excuse Attendee #${bo.number}` }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(`Refund Attendee #${bo.number}'s $10.00 deposit?`);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/deposit-excuse-${viewport.width}.png` });
      await dialog.getByRole("button", { name: "Refund deposit" }).click();
      await expect(dialog).toBeHidden();
      await expect(deposits.getByRole("status")).toHaveText(
        `Attendee #${bo.number}'s $10.00 deposit is being refunded.`,
      );
      await expect(row).toContainText("Refunded");
      await expect(row.getByRole("button", { name: /Excuse/ })).toHaveCount(0);
      await expect(deposits.locator('[data-figure="deposit Refunded"]')).toContainText("$20.00");
      expect(await depositRefunds(people.Bo.pledgeId)).toEqual([{ state: "succeeded", cents: 1000 }]);
      if (SHOTS) await deposits.screenshot({ path: `${SHOTS}/deposit-manage-${viewport.width}.png` });

      // the CSV says it too
      const csv = await (await page.request.get(`/campaign/${event.id}/commitments.csv`)).text();
      expect(csv.split("\r\n")[0]).toContain('"Deposit"');
      expect(csv.split("\r\n").filter((l) => l.includes('"refunded"'))).toHaveLength(2);
    });
  });
}
