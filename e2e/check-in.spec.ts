import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { createCampaign, createUser, expect, loginAs, sql, test, type TestUser } from "./fixtures";

/* Issue 36 item 2: the check-in page. The organizer checks attendees in by the short code and by
   search; a second check-in says "already checked in", a void ticket says why; a door helper the
   organizer invites by email checks in, cannot open the manage page and never sees hidden names. */

const SHOTS = process.env.CHECK_IN_SHOTS;

/** A confirmed paid event ($15, names hidden for good) with three charged places. */
async function confirmedEvent(t: string) {
  const organizer = await createUser({ name: `Olga ${t}` });
  const event = await createCampaign({
    title: `Door night ${t}`,
    goal: 3,
    ticketPriceCents: 1500,
    creator: organizer,
    status: "charged",
    attendeesAnonymous: true,
    identityRevelationType: "never",
    deadline: new Date(Date.now() - 86_400_000),
    startsAt: new Date(Date.now() + 5 * 86_400_000),
    venue: "The Hall",
  });
  const people: Record<string, { user: TestUser; pledgeId: string }> = {};
  for (const name of ["Ada", "Bo", "Cy"]) {
    const user = await createUser({ name: `${name} ${t}` });
    const pledgeId = `p${crypto.randomBytes(8).toString("hex")}`;
    await sql().query(
      `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", charged, "chargedAt", "chargeType", "chargeStatus", "memberSince")
       VALUES ($1, $2, $3, $4, 1500, true, now(), 'paid', 'succeeded', now())`,
      [pledgeId, event.id, user.id, user.name],
    );
    // a charge is a money row too (lib/ledger), which the payout ledger sums
    await sql().query(
      `INSERT INTO "MoneyMovement" (kind, purpose, state, "amountCents", "idempotencyKey", "campaignId", "pledgeId")
       VALUES ('charge', 'ticket', 'succeeded', 1500, $1, $2, $3)`,
      [`charge-${pledgeId}`, event.id, pledgeId],
    );
    people[name] = { user, pledgeId };
  }
  await sql().query(
    `UPDATE "Campaign" SET "committedCount" = 3, "pledgeCount" = 3, "fundedAt" = now() WHERE id = $1`,
    [event.id],
  );
  return { organizer, event, people };
}

/** The ticket of a place (issued once a door page has been opened), its code and attendee number. */
async function ticketOf(pledgeId: string) {
  const { rows } = await sql().query(
    `SELECT t.code, p."attendeeNumber" AS n FROM "Ticket" t JOIN "Pledge" p ON p.id = t."pledgeId" WHERE p.id = $1`,
    [pledgeId],
  );
  expect(rows).toHaveLength(1);
  return { code: rows[0].code as string, number: rows[0].n as number };
}

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  test.describe(`check-in at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the organizer checks in by code and by search; a second check-in says already; a void ticket says why; the manage page counts", async ({
      page,
    }) => {
      const t = crypto.randomBytes(3).toString("hex");
      const { organizer, event, people } = await confirmedEvent(t);
      await loginAs(page, organizer);
      const res = await page.goto(`/campaign/${event.id}/check-in`);
      // the camera is allowed here, and only here
      expect(res!.headers()["permissions-policy"]).toContain("camera=(self)");
      const eventPage = await page.request.get(`/campaign/${event.id}`);
      expect(eventPage.headers()["permissions-policy"]).toContain("camera=()");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Check-in: Door night ${t}`);
      const counts = page.getByTestId("check-in-counts");
      await expect(counts).toHaveText("0 checked in of 3 expected");
      const answer = page.getByTestId("check-in-answer");
      const ada = await ticketOf(people.Ada.pledgeId);

      // typed in lower case, without the dash
      await page.getByLabel("Ticket code").fill(ada.code.toLowerCase());
      await page.getByRole("button", { name: "Check in", exact: true }).first().click();
      await expect(answer).toContainText("Checked in");
      await expect(answer).toContainText(`Ada ${t}`);
      await expect(answer).toContainText("Paid $15.00");
      await expect(counts).toHaveText("1 checked in of 3 expected");
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}/check-in-organizer-${viewport.width}.png`, fullPage: true });

      // the same ticket again, with its dash
      await page.getByLabel("Ticket code").fill(`${ada.code.slice(0, 4)}-${ada.code.slice(4)}`);
      await page.getByRole("button", { name: "Check in", exact: true }).first().click();
      await expect(answer).toContainText("Already checked in");
      await expect(answer).toContainText("by the organizer");
      await expect(counts).toHaveText("1 checked in of 3 expected");

      // by search: the organizer finds a name
      await page.getByLabel("Find by name or attendee number").fill(`bo ${t}`);
      await page.getByRole("button", { name: "Search" }).click();
      const results = page.getByRole("list", { name: "Search results" });
      await expect(results.getByRole("listitem")).toHaveCount(1);
      await expect(results).toContainText(`Bo ${t}`);
      await results.getByRole("button", { name: "Check in" }).click();
      await expect(answer).toContainText("Checked in");
      await expect(answer).toContainText(`Bo ${t}`);
      await expect(counts).toHaveText("2 checked in of 3 expected");

      // a withdrawn place: its ticket is void and says why
      const cy = await ticketOf(people.Cy.pledgeId);
      await sql().query(`UPDATE "Pledge" SET "withdrawnAt" = now() WHERE id = $1`, [people.Cy.pledgeId]);
      await page.getByLabel("Ticket code").fill(cy.code);
      await page.getByRole("button", { name: "Check in", exact: true }).first().click();
      await expect(answer).toContainText("Void ticket");
      await expect(answer).toContainText("Void: this commitment was withdrawn.");
      const { rows } = await sql().query(`SELECT count(*)::int AS n FROM "CheckIn" WHERE "campaignId" = $1`, [
        event.id,
      ]);
      expect(rows[0].n).toBe(2);

      // the manage page: checked in of expected (the void one is not expected)
      await page.goto(`/campaign/${event.id}/manage`);
      await expect(page.getByTestId("manage-check-in-counts")).toHaveText("2 checked in of 2 expected");
      // the CSV carries the check-in time
      const csv = await (await page.request.get(`/campaign/${event.id}/commitments.csv`)).text();
      expect(csv.split("\r\n")[0]).toContain('"Checked in at (UTC)"');
      expect(csv).toMatch(new RegExp(`"Ada ${t}"[^\\r\\n]*"\\d{4}-\\d\\d-\\d\\dT[^"]+Z"\\r\\n`));
    });

    test("a door helper invited by email checks in, sees attendees as members do, and cannot open the manage page", async ({
      page,
    }) => {
      const t = crypto.randomBytes(3).toString("hex");
      const { organizer, event, people } = await confirmedEvent(t);
      const email = `door-${t}@example.test`;

      await loginAs(page, organizer);
      await page.goto(`/campaign/${event.id}/manage`);
      await page.getByLabel("Invite a door helper by email").fill(email.toUpperCase());
      await page.getByRole("button", { name: "Invite" }).click();
      await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
      await expect(page.getByRole("list", { name: "Door helpers" })).toContainText(email);
      const sent = await sql().query(`SELECT text FROM "EmailOutbox" WHERE "toEmail" = $1`, [email]);
      expect(sent.rows).toHaveLength(1);
      expect(sent.rows[0].text).toContain(`/campaign/${event.id}/check-in`);

      // the helper signs in with that email (confirmed)
      const helper = await createUser({ email, name: `Hank ${t}` });
      await sql().query(`UPDATE "User" SET "emailVerified" = now() WHERE id = $1`, [helper.id]);
      await loginAs(page, helper);
      await page.goto(`/campaign/${event.id}/check-in`);
      await expect(page.getByText("Door helper", { exact: true })).toBeVisible();
      const answer = page.getByTestId("check-in-answer");
      const ada = await ticketOf(people.Ada.pledgeId);
      const bo = await ticketOf(people.Bo.pledgeId);
      await page.getByLabel("Ticket code").fill(ada.code);
      await page.getByRole("button", { name: "Check in", exact: true }).first().click();
      await expect(answer).toContainText("Checked in");
      await expect(answer).toContainText(`Anonymous Attendee #${ada.number}`);

      // a name finds nobody for a helper; a number does, as a member sees them
      const search = page.getByLabel("Find by attendee number or code");
      await search.fill(`Bo ${t}`);
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("list", { name: "Search results" })).toContainText("Nobody found.");
      await search.fill(`#${bo.number}`);
      await page.getByRole("button", { name: "Search" }).click();
      const results = page.getByRole("list", { name: "Search results" });
      await expect(results).toContainText(`Anonymous Attendee #${bo.number}`);
      await results.getByRole("button", { name: "Check in" }).click();
      await expect(answer).toContainText(`Anonymous Attendee #${bo.number}`);
      await expect(page.getByTestId("check-in-counts")).toHaveText("2 checked in of 3 expected");
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}/check-in-helper-${viewport.width}.png`, fullPage: true });
      const html = await page.content();
      for (const hidden of [`Ada ${t}`, `Bo ${t}`, `Cy ${t}`, people.Ada.user.email])
        expect(html).not.toContain(hidden);

      // not the manage page, not the CSV
      await page.goto(`/campaign/${event.id}/manage`);
      await expect(page).toHaveURL(/\/(\?.*)?$/);
      await expect(
        page.getByText("Campaign not found or you don't have permission to manage it"),
      ).toBeVisible();
      expect((await page.request.get(`/campaign/${event.id}/commitments.csv`)).status()).toBe(404);

      // a signed-in stranger is told they may not check in
      await loginAs(page, await createUser({ name: `Sam ${t}` }));
      await page.goto(`/campaign/${event.id}/check-in`);
      await expect(
        page.getByText("Only the organizer and the door helpers of this event can check people in."),
      ).toBeVisible();
      await expect(page.getByLabel("Ticket code")).toHaveCount(0);
    });
  });
}

test.describe("check-in offline at 375 px", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("a failed connection says so, shows no check-in, and retries until the server answers", async ({
    page,
    context,
  }) => {
    const t = crypto.randomBytes(3).toString("hex");
    const { organizer, event, people } = await confirmedEvent(t);
    await loginAs(page, organizer);
    await page.goto(`/campaign/${event.id}/check-in`);
    const bo = await ticketOf(people.Bo.pledgeId);
    const answer = page.getByTestId("check-in-answer");
    await context.setOffline(true);
    await page.getByLabel("Ticket code").fill(bo.code);
    await page.getByRole("button", { name: "Check in", exact: true }).first().click();
    await expect(answer).toContainText("No connection");
    await expect(answer).toContainText("Not checked in yet");
    await expect(answer).not.toContainText(`Bo ${t}`);
    const none = await sql().query(`SELECT count(*)::int AS n FROM "CheckIn" WHERE "campaignId" = $1`, [
      event.id,
    ]);
    expect(none.rows[0].n).toBe(0);
    await context.setOffline(false);
    await expect(answer).toContainText("Checked in", { timeout: 20_000 });
    await expect(answer).toContainText(`Bo ${t}`);
    await expect(page.getByTestId("check-in-counts")).toHaveText("1 checked in of 3 expected");
  });
});

/** One grey frame of `png` (fitted into 640×480 on white) as a Y4M video: Chrome's fake camera. */
async function y4mOf(png: Buffer, file: string) {
  const [w, h] = [640, 480];
  const y = await sharp(png)
    .resize(400, 400, { kernel: "nearest", fit: "contain", background: "#ffffff" })
    .extend({ top: 40, bottom: 40, left: 120, right: 120, background: "#ffffff" })
    .flatten({ background: "#ffffff" })
    .grayscale()
    .raw()
    .toBuffer();
  expect(y.length).toBe(w * h);
  const chroma = Buffer.alloc((w / 2) * (h / 2) * 2, 128);
  const header = Buffer.from(`YUV4MPEG2 W${w} H${h} F10:1 Ip A1:1 C420jpeg\n`);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from("FRAME\n"), y, chroma]));
}

test.describe("check-in by camera at 375 px", () => {
  test("the scanner (jsQR where the browser has no BarcodeDetector) reads a ticket's QR from the camera and checks it in once", async ({
    baseURL,
  }) => {
    const t = crypto.randomBytes(3).toString("hex");
    const { organizer, event, people } = await confirmedEvent(t);
    const video = path.join(os.tmpdir(), `check-in-${t}.y4m`);
    const browser = await chromium.launch({
      executablePath: fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    try {
      const context = await browser.newContext({
        baseURL,
        viewport: { width: 375, height: 812 },
        permissions: ["camera"],
      });
      const page = await context.newPage();
      // Ada's own ticket, as her browser gets it: its QR image is what she holds up at the door
      await loginAs(page, people.Ada.user);
      const mine = await (await page.request.get(`/api/me/tickets/${event.id}`)).json();
      const qr = Buffer.from(String(mine.ticket.qr).replace(/^data:image\/png;base64,/, ""), "base64");
      await y4mOf(qr, video);

      await loginAs(page, organizer);
      await page.goto(`/campaign/${event.id}/check-in`);
      await page.getByRole("button", { name: "Scan tickets with the camera" }).click();
      await expect(page.getByLabel("Camera")).toBeVisible();
      const answer = page.getByTestId("check-in-answer");
      await expect(answer).toContainText("Checked in", { timeout: 20_000 });
      await expect(answer).toContainText(`Ada ${t}`);
      await expect(page.getByText(/decoded by (jsQR|the browser's detector)/)).toBeVisible();
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/check-in-camera-375.png`, fullPage: true });
      // the same QR stays in front of the camera: a later scan says "already", never a second row
      await expect(answer).toContainText("Already checked in", { timeout: 20_000 });
      const { rows } = await sql().query(`SELECT count(*)::int AS n FROM "CheckIn" WHERE "campaignId" = $1`, [
        event.id,
      ]);
      expect(rows[0].n).toBe(1);
      await context.close();
    } finally {
      await browser.close();
      fs.rmSync(video, { force: true });
    }
  });
});
