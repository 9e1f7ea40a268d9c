import crypto from "node:crypto";
import type { Browser } from "@playwright/test";
import { createCampaign, createUser, expect, loginAs, sql, test, type TestUser } from "./fixtures";

const tag = () => crypto.randomBytes(4).toString("hex");

/**
 * A fresh browser context signed in as `user`. Switching users by swapping cookies in one context
 * races the account bar's session refresh from the previous page, which can set the old cookie back.
 */
async function pageAs(browser: Browser, user: TestUser) {
  const page = await (await browser.newContext()).newPage();
  await loginAs(page, user);
  return page;
}

async function pledge(campaignId: string, userId: string) {
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor) VALUES ($1, $2, $3, 'x')`,
    [`pl${crypto.randomBytes(10).toString("hex")}`, campaignId, userId],
  );
  await sql().query(
    `UPDATE "Campaign" SET "committedCount" = "committedCount" + 1, "pledgeCount" = "pledgeCount" + 1 WHERE id = $1`,
    [campaignId],
  );
}

/** RFC 5545: CRLF lines, folded at 75 octets; returns the VEVENT's properties. */
function parseIcs(text: string) {
  expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
  const lines = text
    .trimEnd()
    .split("\r\n")
    .reduce<string[]>(
      (acc, l) => (l.startsWith(" ") ? (acc[acc.length - 1] += l.slice(1)) : acc.push(l), acc),
      [],
    );
  const props: Record<string, string> = {};
  let inEvent = false;
  for (const l of lines) {
    if (l === "BEGIN:VEVENT") inEvent = true;
    else if (l === "END:VEVENT") inEvent = false;
    else if (inEvent) props[l.slice(0, l.indexOf(":"))] = l.slice(l.indexOf(":") + 1);
  }
  expect(lines.at(-1)).toBe("END:VCALENDAR");
  return props;
}

test("the organizer posts an update: it shows on the event page and each committer's email is listed at /admin/emails", async ({
  page: first,
  browser,
}) => {
  let page = first;
  const t = tag();
  const creator = await createUser({ name: "Organizer" });
  const campaign = await createCampaign({ creator, title: `Update picnic ${t}` });
  const backers = [
    await createUser({ email: `upd-a-${t}@example.test` }),
    await createUser({ email: `upd-b-${t}@example.test` }),
  ];
  for (const b of backers) await pledge(campaign.id, b.id);

  await loginAs(page, creator);
  await page.goto(`/campaign/${campaign.id}`);
  await page.getByLabel("Post an update to everyone who committed").fill(`Bring sunscreen ${t}`);
  await page.getByRole("button", { name: "Post update" }).click();
  await expect(page.getByText("Update posted and emailed to 2 committers.")).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Updates from the organizer" }).getByText(`Bring sunscreen ${t}`),
  ).toBeVisible();

  // Visitors see the update, not the form.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/campaign/${campaign.id}`);
  await expect(visitor.getByText(`Bring sunscreen ${t}`)).toBeVisible();
  await expect(visitor.getByLabel("Post an update to everyone who committed")).toHaveCount(0);

  // Non-admins are sent home from /admin/emails.
  const organizerPage = await pageAs(browser, creator);
  await organizerPage.goto("/admin/emails");
  await expect(organizerPage).toHaveURL(/\/$/);

  page = await pageAs(browser, await createUser({ isAdmin: true, name: "Admin" }));
  await page.goto(`/admin/emails?to=${encodeURIComponent(`-${t}@example.test`)}`);
  await expect(page.getByRole("heading", { name: "Emails" })).toBeVisible();
  // (Their commit confirmations are listed too; the update is one email per committer.)
  const updateEmails = page
    .getByRole("listitem")
    .filter({ hasText: `Update from the organizer of "Update picnic ${t}"` });
  await expect(updateEmails).toHaveCount(2);
  expect((await updateEmails.getByTestId("email-to").allTextContents()).sort()).toEqual([
    `To: upd-a-${t}@example.test`,
    `To: upd-b-${t}@example.test`,
  ]);
  await updateEmails.first().getByTestId("email-subject").click();
  await expect(page.getByText(`Bring sunscreen ${t}`).first()).toBeVisible();
  // the HTML version as the recipient sees it, in a sandboxed frame whose links open a new tab
  const frame = updateEmails.first().locator("iframe");
  await expect(frame).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
  const html = updateEmails.first().frameLocator("iframe");
  await expect(html.getByRole("heading", { name: `Update: Update picnic ${t}` })).toBeVisible();
  await expect(html.getByText(`Bring sunscreen ${t}`)).toBeVisible();
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    html.getByRole("link", { name: "View the event" }).click(),
  ]);
  await tab.waitForLoadState();
  expect(tab.url()).toContain(`/campaign/${campaign.id}`);
  await tab.close();
});

test("add to calendar downloads a valid .ics; the flyer shows a QR code to the event", async ({ page }) => {
  // issue 16: a calendar entry needs a date (an event without one offers none)
  const campaign = await createCampaign({
    title: `Calendar picnic ${tag()}`,
    startsAt: new Date(Date.now() + 10 * 86400_000),
  });
  const res = await page.request.get(`/campaign/${campaign.id}/calendar.ics`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/calendar");
  const ev = parseIcs(await res.text());
  expect(ev.UID).toBe(`campaign-${campaign.id}@pactnexus`);
  expect(ev.STATUS).toBe("TENTATIVE");
  expect(ev.SUMMARY).toBe(campaign.title);
  expect(ev.DTSTART).toMatch(/^\d{8}T\d{6}Z$/);

  const pending = await createCampaign({ approvalStatus: "pending" });
  expect((await page.request.get(`/campaign/${pending.id}/calendar.ics`)).status()).toBe(404);

  await page.goto(`/campaign/${campaign.id}`);
  await expect(page.getByTestId("pace")).toHaveText(
    // issue 16: a new event with no commitments has no pace yet
    /^Needs 10 more in \d+ days?; too early to tell whether it will tip\.$/,
  );
  await page.getByRole("link", { name: "Printable flyer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(campaign.title);
  const qr = page.getByRole("img", { name: /QR code linking to .*\/campaign\// });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByText("Scan to commit")).toBeVisible();

  // a cancelled event's flyer does not ask anyone to commit (its phase decides: lib/events/lifecycle)
  const cancelled = await createCampaign({ title: `Called-off picnic ${tag()}`, status: "cancelled" });
  await page.goto(`/campaign/${cancelled.id}/flyer`);
  await expect(page.getByTestId("flyer-closed")).toHaveText("This event was cancelled.");
  await expect(page.getByText("Scan to see the event")).toBeVisible();
  await expect(page.getByText("Scan to commit")).toHaveCount(0);
  await expect(page.getByText(/It only happens if/)).toHaveCount(0);
});

test("the Open Graph image is a PNG for approved events", async ({ page }) => {
  const campaign = await createCampaign();
  await page.goto(`/campaign/${campaign.id}`);
  const og = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(og).toContain(`/campaign/${campaign.id}/opengraph-image`);
  const res = await page.request.get(new URL(og!).pathname + new URL(og!).search);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("image/png");
  expect((await res.body()).subarray(1, 4).toString()).toBe("PNG");
});

test("threshold reached through the commit flow: each attendee's confirmation (and commit email) appears in /admin/emails", async ({
  page: first,
  browser,
}) => {
  let page = first;
  test.setTimeout(240_000);
  const t = tag();
  const event = await createCampaign({ title: `Threshold party ${t}`, goal: 2 });
  const attendees = [
    await createUser({ email: `tip-1-${t}@example.test` }),
    await createUser({ email: `tip-2-${t}@example.test` }),
  ];
  for (const a of attendees) {
    page = await pageAs(browser, a);
    await page.goto(`/campaign/${event.id}`);
    await page.getByRole("button", { name: "Commit", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Confirm Your Commitment" })
      .getByRole("button", { name: "Yes, I'm In!" })
      .click();
    await expect(page.getByRole("dialog", { name: /You're Committed!|Event Confirmed!/ })).toBeVisible();
  }

  page = await pageAs(browser, await createUser({ isAdmin: true, name: "Admin" }));
  const confirmed = `Event Confirmed! "Threshold party ${t}" is happening`;
  // The email job runs every minute (and on demand): poll until both confirmations are listed.
  await expect(async () => {
    await page.goto(`/admin/emails?to=${encodeURIComponent(`-${t}@example.test`)}`);
    const rows = await page
      .getByRole("listitem")
      .filter({ hasText: confirmed })
      .getByTestId("email-to")
      .allTextContents();
    expect(rows.sort()).toEqual(attendees.map((a) => `To: ${a.email}`).sort());
  }).toPass({ timeout: 200_000, intervals: [5_000] });
  for (const a of attendees) {
    await expect(
      page
        .getByRole("listitem")
        .filter({ hasText: `To: ${a.email}` })
        .filter({ hasText: `You're committed to "Threshold party ${t}"` }),
    ).toHaveCount(1);
  }
  await page
    .getByRole("listitem")
    .filter({ hasText: confirmed })
    .first()
    .getByTestId("email-subject")
    .click();
  await expect(page.getByText("This event is free: nothing was charged.").first()).toBeVisible();
});
