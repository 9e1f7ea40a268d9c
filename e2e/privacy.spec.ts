import crypto from "node:crypto";
import type { APIResponse, Page } from "@playwright/test";
import { createCampaign, createUser, expect, loginAs, sql, test, type TestUser } from "./fixtures";

/**
 * What the browser receives must not carry hidden identities: the full HTML (metadata included)
 * and the React Server Components payload (the same URL requested with `RSC: 1`, as the client
 * router does on navigation).
 */

const tag = () => crypto.randomBytes(4).toString("hex");

async function pledge(campaignId: string, user: TestUser) {
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor) VALUES ($1, $2, $3, $4)`,
    [`pl${crypto.randomBytes(10).toString("hex")}`, campaignId, user.id, user.name ?? user.email],
  );
  await sql().query(
    `UPDATE "Campaign" SET "committedCount" = "committedCount" + 1, "pledgeCount" = "pledgeCount" + 1 WHERE id = $1`,
    [campaignId],
  );
}

/** A comment `minutesAgo` minutes old: times stored to the millisecond can tie, and a tie is numbered by user id. */
async function comment(campaignId: string, user: TestUser, text: string, minutesAgo: number) {
  await sql().query(
    `INSERT INTO "Comment" (id, "campaignId", "authorId", text, "createdAt") VALUES ($1, $2, $3, $4, now() - $5::int * interval '1 minute')`,
    [`cm${crypto.randomBytes(10).toString("hex")}`, campaignId, user.id, text, minutesAgo],
  );
}

async function fetchBoth(page: Page, campaignId: string): Promise<{ html: string; rsc: string }> {
  const htmlRes = await page.request.get(`/campaign/${campaignId}`);
  expect(htmlRes.status()).toBe(200);
  expect(htmlRes.headers()["content-type"]).toContain("text/html");
  const rscRes: APIResponse = await page.request.get(`/campaign/${campaignId}`, { headers: { RSC: "1" } });
  expect(rscRes.status()).toBe(200);
  expect(rscRes.headers()["content-type"]).toContain("text/x-component");
  return { html: await htmlRes.text(), rsc: await rscRes.text() };
}

async function scenario(opts: {
  attendeesAnonymous: boolean;
  identityRevelationType: "never" | "onStart" | "immediate";
  deadline?: Date;
  goal?: number;
}) {
  const t = tag();
  const creator = await createUser({ name: `Olga Organizer ${t}`, email: `olga.${t}@example.test` });
  const hidden = await createUser({ name: `Hannah Hidden ${t}`, email: `hannah.${t}@example.test` });
  const emailOnly = await createUser({ name: null, email: `emailonly.${t}@example.test` });
  const campaign = await createCampaign({
    creator,
    title: `Privacy picnic ${t}`,
    goal: opts.goal ?? 10,
    ...opts,
  });
  await pledge(campaign.id, hidden);
  await pledge(campaign.id, emailOnly);
  await comment(campaign.id, hidden, `Looking forward to it ${t}`, 2);
  await comment(campaign.id, emailOnly, `Me too ${t}`, 1);
  return { t, creator, hidden, emailOnly, campaign };
}

/** Every identity trace of `u`: name, email, and user id. */
const traces = (u: TestUser) => [u.name, u.email, u.id].filter(Boolean) as string[];

test.describe("anonymous attendees (revelation: never)", () => {
  test("a visitor and another signed-in user receive no hidden name, email or user id in the HTML or RSC payload", async ({
    page,
  }) => {
    const s = await scenario({ attendeesAnonymous: true, identityRevelationType: "never" });
    const other = await createUser({ name: `Oscar Other ${s.t}` });

    for (const viewer of [null, other]) {
      if (viewer) await loginAs(page, viewer);
      const { html, rsc } = await fetchBoth(page, s.campaign.id);
      for (const body of [html, rsc]) {
        // The page itself is there (so an empty or error page cannot pass).
        expect(body).toContain(`Privacy picnic ${s.t}`);
        expect(body).toContain(`Looking forward to it ${s.t}`);
        expect(body).toContain("Anonymous Commenter #1");
        expect(body).toContain("Anonymous Commenter #2");
        for (const secret of [...traces(s.hidden), ...traces(s.emailOnly)])
          expect(body, `leaked ${secret}`).not.toContain(secret);
      }
      // The organizer's email is only for the creator, admins and committed users (DESIGN §1).
      expect(html).not.toContain(s.creator.email);
      expect(rsc).not.toContain(s.creator.email);
    }
  });

  test("the attendee sees herself, but not the other hidden attendee", async ({ page }) => {
    const s = await scenario({ attendeesAnonymous: true, identityRevelationType: "never" });
    await loginAs(page, s.hidden);
    const { html, rsc } = await fetchBoth(page, s.campaign.id);
    for (const body of [html, rsc]) {
      expect(body).toContain(s.hidden.name!);
      for (const secret of traces(s.emailOnly)) expect(body, `leaked ${secret}`).not.toContain(secret);
      expect(body).toContain("Anonymous Commenter #2");
    }
    // In the browser: her own comment carries her name and "You"; the other one is anonymous.
    await page.goto(`/campaign/${s.campaign.id}`);
    const authors = page.getByTestId("comment-author");
    await expect(authors).toHaveText(["Anonymous Commenter #2", s.hidden.name!]);
  });

  test("the creator and an admin see every identity", async ({ page }) => {
    const s = await scenario({ attendeesAnonymous: true, identityRevelationType: "never" });
    const admin = await createUser({ name: `Ada Admin ${s.t}`, isAdmin: true });
    for (const viewer of [s.creator, admin]) {
      await page.context().clearCookies();
      await loginAs(page, viewer);
      const { html, rsc } = await fetchBoth(page, s.campaign.id);
      for (const body of [html, rsc]) {
        expect(body).toContain(s.hidden.name!);
        expect(body).toContain(s.emailOnly.email);
        expect(body).not.toContain("Anonymous Commenter");
      }
    }
  });
});

test.describe("when identities are public", () => {
  test("anonymity off: a visitor sees names (display name, else a number — never the email)", async ({
    page,
  }) => {
    // (was: "display name, else email" — DESIGN §1 "public names", issue 13 item 3)
    const s = await scenario({ attendeesAnonymous: false, identityRevelationType: "never" });
    const { html, rsc } = await fetchBoth(page, s.campaign.id);
    for (const body of [html, rsc]) {
      expect(body).toContain(s.hidden.name!);
      expect(body).not.toContain(s.emailOnly.email);
      expect(body).toMatch(/Attendee #[12]\b/);
      expect(body).toContain("Commenter #2");
      expect(body).not.toContain("Anonymous Commenter");
    }
  });

  test("onStart: hidden before the deadline, revealed after it", async ({ page }) => {
    const before = await scenario({ attendeesAnonymous: true, identityRevelationType: "onStart" });
    const after = await scenario({
      attendeesAnonymous: true,
      identityRevelationType: "onStart",
      deadline: new Date(Date.now() - 3600_000),
    });
    const b = await fetchBoth(page, before.campaign.id);
    for (const body of [b.html, b.rsc])
      for (const secret of traces(before.hidden)) expect(body).not.toContain(secret);
    const a = await fetchBoth(page, after.campaign.id);
    for (const body of [a.html, a.rsc]) expect(body).toContain(after.hidden.name!);
  });

  test("immediate: hidden below the threshold, revealed once it is met", async ({ page }) => {
    const below = await scenario({ attendeesAnonymous: true, identityRevelationType: "immediate", goal: 3 });
    const met = await scenario({ attendeesAnonymous: true, identityRevelationType: "immediate", goal: 2 });
    const b = await fetchBoth(page, below.campaign.id);
    for (const body of [b.html, b.rsc])
      for (const secret of traces(below.hidden)) expect(body).not.toContain(secret);
    const m = await fetchBoth(page, met.campaign.id);
    for (const body of [m.html, m.rsc]) expect(body).toContain(met.hidden.name!);
  });
});
