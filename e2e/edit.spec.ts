import crypto from "node:crypto";
import { formatInZone } from "../lib/campaigns/event-time";
import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

const MANAGE_DENIED = "Campaign not found or you don't have permission to manage it";

/*
 * Issue 17 item 2: the organizer edits a confirmed event's place; the backer gets an email with the
 * new place and the calendar entry moved (same UID, higher SEQUENCE).
 */
test("an organizer moves a tipped event to a new place; the backer is emailed with the calendar entry moved", async ({
  page,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const organizer = await createUser({ name: `Edda ${t}` });
  const backer = await createUser({ name: `Ben ${t}` });
  const { id } = await createCampaign({
    creator: organizer,
    title: `Editable ${t}`,
    status: "charged",
    goal: 1,
    ticketPriceCents: 900,
    deadline: new Date(Date.now() + 2 * 86400_000),
    startsAt: new Date(Date.now() + 6 * 86400_000),
    timeZone: "America/New_York",
    venue: "Old Hall",
  });
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents") VALUES ($1, $2, $3, $4, 900)`,
    [`pl${crypto.randomBytes(10).toString("hex")}`, id, backer.id, backer.name],
  );

  await loginAs(page, organizer);
  await page.goto(`/campaign/${id}`);
  await page.getByRole("link", { name: "Edit event" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit event");
  // what may not change says why
  await expect(page.getByText("Fixed: someone has committed").first()).toBeVisible();
  await expect(page.getByText("Fixed: the event is no longer collecting commitments")).toBeVisible();
  await page.getByLabel("Venue", { exact: true }).fill(`New Hall ${t}`);
  await page.getByLabel("Address", { exact: true }).fill("12 River Rd");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toContainText("1 person who committed was emailed");

  await page.goto(`/campaign/${id}`);
  await expect(page.getByText(`New Hall ${t}`)).toBeVisible();

  const { rows } = await sql().query(
    `SELECT "toEmail", text, attachments FROM "EmailOutbox" WHERE "dedupeKey" LIKE $1`,
    [`changed:${id}:%`],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0].toEmail).toBe(backer.email);
  expect(rows[0].text).toContain(`New Hall ${t}, 12 River Rd`);
  const ics = rows[0].attachments[0].content as string;
  expect(ics).toContain(`UID:campaign-${id}@pactnexus`);
  expect(ics).toContain("SEQUENCE:2"); // stored 1 after the change + CONFIRMED's 1: above the confirmed entry's 1
});

test("someone else cannot open the edit page", async ({ page }) => {
  const { id } = await createCampaign();
  await loginAs(page, await createUser());
  await page.goto(`/campaign/${id}/edit`);
  // home, with the notice (the page then drops ?notice= from the address bar)
  await expect(page).toHaveURL(/\/(\?.*)?$/);
  await expect(page.getByRole("alert").filter({ hasText: MANAGE_DENIED })).toBeVisible();
});

/*
 * Issue 31 item 4: a later deadline stops 90 days after the original one; the form shows that cap, says
 * it plainly when passed, and the backer is emailed the old and the new deadline.
 */
test("the deadline moves later up to the cap the form shows, and the backer is emailed both dates", async ({
  page,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const organizer = await createUser({ name: `Dana ${t}` });
  const backer = await createUser({ name: `Bo ${t}` });
  const deadline = new Date(Math.ceil((Date.now() + 5 * 86400_000) / 3600_000) * 3600_000); // on the hour
  const { id } = await createCampaign({
    creator: organizer,
    title: `Extendable ${t}`,
    goal: 5,
    ticketPriceCents: 900,
    deadline,
    startsAt: new Date(deadline.getTime() + 300 * 86400_000),
    timeZone: "UTC",
  });
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents") VALUES ($1, $2, $3, $4, 900)`,
    [`pl${crypto.randomBytes(10).toString("hex")}`, id, backer.id, backer.name],
  );
  const cap = new Date(deadline.getTime() + 90 * 86400_000);
  const wall = (d: Date) => d.toISOString().slice(0, 16); // the event's zone is UTC

  await loginAs(page, organizer);
  await page.goto(`/campaign/${id}/edit`);
  const field = page.getByLabel("Deadline", { exact: true });
  await expect(page.getByText(`to ${formatInZone(cap, "UTC")} at the latest`)).toBeVisible();
  await expect(field).toHaveAttribute("max", wall(cap));

  await field.fill(wall(new Date(cap.getTime() + 86400_000)));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: `The deadline can move to ${formatInZone(cap, "UTC")} at the latest` })
      .first(),
  ).toBeVisible();

  const later = new Date(deadline.getTime() + 30 * 86400_000);
  await field.fill(wall(later));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toContainText("1 person who committed was emailed about the change");
  const { rows } = await sql().query(`SELECT "toEmail", text FROM "EmailOutbox" WHERE "dedupeKey" LIKE $1`, [
    `deadline-moved:${id}:%`,
  ]);
  expect(rows).toHaveLength(1);
  expect(rows[0].toEmail).toBe(backer.email);
  expect(rows[0].text).toContain(
    `moved its deadline from ${formatInZone(deadline, "UTC")} to ${formatInZone(later, "UTC")}`,
  );
});
