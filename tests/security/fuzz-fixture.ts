/** Fixture and checks shared by the entry-point fuzz suites. */
import { expect } from "vitest";
import { db } from "@/lib/db";
import { confirmDemoSetup, createDemoSetupSecret } from "@/lib/payments/demo-gateway";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";
import { fingerprint, sql, TABLES } from "@/tests/security/harness";
import { isClearMessage } from "@/tests/security/arbitraries";

export async function fuzzFixture() {
  const user = await createUser();
  const creator = await createUser();
  const backer = await createUser();
  const admin = await createUser({ isAdmin: true });
  const campaign = await createCampaign({ creatorId: creator.id, goal: 50 });
  const paid = await createCampaign({
    creatorId: creator.id,
    goal: 1,
    ticketPriceCents: 2500,
    status: "charged",
  });
  const pending = await createCampaign({ creatorId: creator.id, approvalStatus: "pending" });
  const pledge = await createPledge(paid.id, backer.id);
  const r = await confirmDemoSetup(backer.id, {
    clientSecret: createDemoSetupSecret(backer.id),
    cardNumber: "4242424242424242",
    expMonth: "12",
    expYear: "2034",
    cvc: "123",
  });
  if (!r.ok) throw new Error(r.error.message);
  const card = r.setupIntent.payment_method;
  await db.pledge.update({
    where: { id: pledge.id },
    data: { chargeStatus: "failed", chargeAttempts: 1, paymentMethodId: card },
  });
  const comment = await db.comment.create({
    data: { campaignId: campaign.id, authorId: user.id, text: "Looking forward" },
  });
  const draft = await db.campaignDraft.create({ data: { creatorId: creator.id, title: "Draft" } });
  const known = [
    campaign.id,
    paid.id,
    pending.id,
    pledge.id,
    comment.id,
    draft.id,
    card,
    user.id,
    "approved",
    "rejected",
    "crowdfund",
    "paction",
    "immediate",
  ];
  return { user, creator, backer, admin, campaign, paid, pending, pledge, comment, draft, card, known };
}
export type FuzzFixture = Awaited<ReturnType<typeof fuzzFixture>>;

/**
 * Counts every row written to the tables of `fingerprint()` (row triggers in this test file's own
 * database; a rolled-back write rolls its count back too). Reading one counter per fuzz run is
 * five times cheaper than hashing the tables, which matters at thousands of runs.
 */
let counterInstalled = false;
async function installWriteCounter() {
  if (counterInstalled) return;
  await sql().query(`
    CREATE TABLE IF NOT EXISTS "_security_writes" (n bigint NOT NULL);
    INSERT INTO "_security_writes" SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM "_security_writes");
    CREATE OR REPLACE FUNCTION "_security_count_write"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE "_security_writes" SET n = n + 1; RETURN NULL; END $$;
    ${TABLES.map((t) => `CREATE OR REPLACE TRIGGER "_security_count_write" AFTER INSERT OR UPDATE OR DELETE ON "${t}" FOR EACH ROW EXECUTE FUNCTION "_security_count_write"();`).join("\n")}
  `);
  counterInstalled = true;
}
const writes = async () =>
  Number((await sql().query<{ n: string }>(`SELECT n FROM "_security_writes"`)).rows[0].n);

/**
 * Tracks the database across a property run: a rejected call must write no row (a rate-limit hit
 * aside, which is not counted). Checked once more at the end against full fingerprints.
 */
export function writeGuard() {
  let last = 0;
  let firstPrint: Record<string, string> | undefined;
  let acceptedAny = false;
  return {
    async start() {
      await installWriteCounter();
      firstPrint = await fingerprint();
      last = await writes();
    },
    async accepted() {
      acceptedAny = true;
      last = await writes();
    },
    async rejected(what: string) {
      expect(await writes(), `${what} was rejected but wrote to the database`).toBe(last);
    },
    /** when nothing was accepted, the whole run must have left every table exactly as it was */
    async finish(what: string) {
      if (!acceptedAny)
        expect(await fingerprint(), `${what}: rejected calls changed the database`).toEqual(firstPrint);
    },
  };
}

/** A route handler's answer to hostile input: never 5xx; a 4xx carries a clear error message. */
export async function checkResponse(res: Response, what: string): Promise<"accepted" | "rejected"> {
  expect(res.status, `${what} answered ${res.status}`).toBeLessThan(500);
  if (res.status < 400) return "accepted";
  const text = await res.text();
  let message: unknown;
  try {
    message = JSON.parse(text)?.error?.message ?? JSON.parse(text)?.error;
  } catch {
    message = text;
  }
  expect(
    isClearMessage(message),
    `${what}: unclear ${res.status} message ${JSON.stringify(message)?.slice(0, 200)}`,
  ).toBe(true);
  return "rejected";
}

/** A server action's answer: an ActionResult; a failure carries a clear message. */
export function checkActionResult(result: unknown, what: string): "accepted" | "rejected" {
  expect(result, `${what} must return an ActionResult`).toEqual(
    expect.objectContaining({ ok: expect.any(Boolean) }),
  );
  const r = result as { ok: boolean; error?: unknown };
  if (r.ok) return "accepted";
  expect(isClearMessage(r.error), `${what}: unclear message ${JSON.stringify(r.error)?.slice(0, 200)}`).toBe(
    true,
  );
  return "rejected";
}
