import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import { encode } from "next-auth/jwt";
import pg from "pg";

export { expect };

const dbUrlFile = path.join(__dirname, "..", ".data", `e2e-${process.env.E2E_PORT || 3100}`, "db-url");
const secret = process.env.E2E_NEXTAUTH_SECRET || "e2e-secret-not-for-production";

/** The local OpenID Connect issuer standing in for Google (scripts/e2e-server.mjs starts it). */
export const oidcIssuer = () =>
  fs.readFileSync(path.join(path.dirname(dbUrlFile), "oidc-url"), "utf8").trim();

let pool: pg.Pool | undefined;
export function sql() {
  pool ??= new pg.Pool({ connectionString: fs.readFileSync(dbUrlFile, "utf8").trim(), max: 4 });
  return pool;
}

const id = () => `e2e${crypto.randomBytes(10).toString("hex")}`;

export type TestUser = { id: string; email: string; name: string | null; isAdmin: boolean };

export async function createUser(opts: Partial<Omit<TestUser, "id">> = {}): Promise<TestUser> {
  const user = {
    id: id(),
    email: opts.email ?? `${id()}@example.test`,
    name: opts.name === undefined ? "Test User" : opts.name,
    isAdmin: opts.isAdmin ?? false,
  };
  await sql().query(
    `INSERT INTO "User" (id, email, name, "isAdmin", "updatedAt") VALUES ($1, $2, $3, $4, now())`,
    [user.id, user.email, user.name, user.isAdmin],
  );
  return user;
}

export type CampaignInput = Partial<{
  title: string;
  description: string;
  goal: number;
  ticketPriceCents: number;
  deadline: Date;
  approvalStatus: "pending" | "approved" | "rejected";
  status: string;
  isTest: boolean;
  attendeesAnonymous: boolean;
  identityRevelationType: "never" | "onStart" | "immediate";
  creator: TestUser;
  startsAt: Date | null;
  endsAt: Date | null;
  timeZone: string;
  venue: string | null;
  address: string | null;
  area: string | null;
  onlineUrl: string | null;
  addressPrivate: boolean;
}>;

export async function createCampaign(input: CampaignInput = {}) {
  const creator = input.creator ?? (await createUser({ name: "Organizer" }));
  const campaignId = id();
  const title = input.title ?? `E2E event ${campaignId.slice(-6)}`;
  await sql().query(
    `INSERT INTO "Campaign" (id, title, description, goal, "ticketPriceCents", deadline, "creatorId", "creatorEmail",
       "approvalStatus", status, "isTest", "attendeesAnonymous", "identityRevelationType", "updatedAt",
       "startsAt", "endsAt", "timeZone", venue, address, area, "onlineUrl", "addressPrivate")
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9::"ApprovalStatus",$10::"CampaignStatus",$11,$12,$13::"IdentityRevelation",now(),
       $14,$15,$16,$17,$18,$19,$20,$21)`,
    [
      campaignId,
      title,
      input.description ?? "An end-to-end test event with a long enough description.",
      input.goal ?? 10,
      input.ticketPriceCents ?? 0,
      input.deadline ?? new Date(Date.now() + 7 * 86400_000),
      creator.id,
      creator.email,
      input.approvalStatus ?? "approved",
      input.status ?? "pending",
      input.isTest ?? false,
      input.attendeesAnonymous ?? true,
      input.identityRevelationType ?? "never",
      input.startsAt ?? null,
      input.endsAt ?? null,
      input.timeZone ?? "UTC",
      input.venue ?? null,
      input.address ?? null,
      input.area ?? null,
      input.onlineUrl ?? null,
      input.addressPrivate ?? false,
    ],
  );
  return { id: campaignId, title, creator };
}

/** Signs the browser in as `user` by minting the NextAuth session cookie (sign-in itself is tested separately). */
export async function loginAs(page: Page, user: TestUser) {
  const token = await encode({ token: { sub: user.id, email: user.email, name: user.name }, secret });
  const url = new URL(base.info().project.use.baseURL ?? `http://localhost:${process.env.E2E_PORT || 3100}`);
  await page.context().addCookies([
    {
      name: "next-auth.session-token",
      value: token,
      domain: url.hostname,
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
    },
  ]);
}

/**
 * The server actions of the production build the suite runs against, by "file#exportedName": their
 * ids (the `Next-Action` header) and a page route that hosts each (from the build's
 * server-reference manifest), so specs can call every action over HTTP as a browser would.
 */
export function serverActions(): Map<string, { id: string; page: string }> {
  const manifest = JSON.parse(
    fs.readFileSync(
      path.join(process.env.NEXT_DIST_DIR || ".next", "server", "server-reference-manifest.json"),
      "utf8",
    ),
  ) as {
    node: Record<string, { workers: Record<string, unknown>; filename?: string; exportedName?: string }>;
  };
  const out = new Map<string, { id: string; page: string }>();
  for (const [id, entry] of Object.entries(manifest.node)) {
    const page = Object.keys(entry.workers).find((w) => !w.startsWith("app/v/"));
    if (entry.filename && entry.exportedName && page)
      out.set(`${entry.filename}#${entry.exportedName}`, { id, page });
  }
  return out;
}

/** A worker route ("app/campaign/[campaignId]/(event)/page") as the URL to post its actions to (groups dropped). */
export const actionPageUrl = (worker: string, ids: { campaignId: string; pledgeId: string }) =>
  "/" +
  worker
    .replace(/^app\/?/, "")
    .replace(/\/?page$/, "")
    .replace(/\/\([^)]*\)/g, "")
    .replace("[campaignId]", ids.campaignId)
    .replace("[pledgeId]", ids.pledgeId);

export const test = base;

/**
 * A demo card kept on file for `userId` (a `DemoPaymentMethod` and its `SavedCard`, the default), as
 * ticking "Save this card for next time" leaves them: its payment method id.
 */
export async function saveDemoCard(userId: string, brand: string, last4: string): Promise<string> {
  const rand = () => Math.random().toString(16).slice(2, 14);
  const pm = `pm_demo_${rand()}${rand()}`;
  await sql().query(
    `INSERT INTO "DemoPaymentMethod" (id, "userId", brand, last4, "expMonth", "expYear", behavior) VALUES ($1,$2,$3,$4,12,2034,'ok')`,
    [pm, userId, brand, last4],
  );
  await sql().query(
    `INSERT INTO "SavedCard" (id, "userId", "paymentMethodId", brand, last4, "expMonth", "expYear", "isDefault")
     VALUES ($1,$2,$3,$4,$5,12,2034,true)`,
    [`sc${Math.random().toString(36).slice(2, 14)}`, userId, pm, brand, last4],
  );
  return pm;
}

/** Fills the demo card form (DESIGN §1 demo payments) with `number` and submits it ("Save Card", or "Pay $X" on the pay page). */
export async function fillCard(page: Page, number: string, button = "Save Card") {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: button }).click();
}

/** Creates an email/password account through the sign-up form at /profile (the browser ends signed in). */
export async function signUpWith(page: Page, email: string, password: string) {
  await page.goto("/profile");
  await page.getByRole("button", { name: "Need an account? Sign Up" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page.getByRole("main").getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();
}
