import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createCampaign, createUser } from "../helpers/factories";
import { referenceStanding, type Markers } from "../helpers/standing-reference";

/**
 * Issue 32: a commitment's place is one column, `Pledge.standing`, decoded from today's markers once,
 * in SQL (migration pledge_standing): by the backfill for the rows there were, and by the trigger
 * pn_standing on every write since. Checked here against the order My commitments decoded them in
 * before (the reference below, written out independently), on every combination the code produces,
 * both ways: rows of the old shape backfilled, and rows written through the trigger.
 */
/** Every combination of markers the code writes (who writes it, in the comment). */
const COMBINATIONS: [string, Markers][] = [
  ["firm commitment (commit)", { memberSince: true }],
  ["charged (charging run)", { memberSince: true, chargeStatus: "succeeded" }],
  ["charge failed (charging run)", { memberSince: true, chargeStatus: "failed" }],
  ["needs confirmation (charging run)", { memberSince: true, chargeStatus: "requires_action" }],
  ["being charged (claim)", { memberSince: true, chargeStatus: "processing" }],
  ["refunded on cancellation", { memberSince: true, chargeStatus: "refunded" }],
  ["promoted from the waitlist", { memberSince: true, promotedAt: true }],
  ["condition not holding (commit with minPeople)", { minPeople: 5 }],
  ["condition holding (membership recount)", { minPeople: 3, memberSince: true }],
  ["on the waitlist (commit when full)", { waitlistedAt: true }],
  ["on the waitlist with a condition", { waitlistedAt: true, minPeople: 4 }],
  ["promotion's charge declined: back in line", { waitlistedAt: true, chargeStatus: "failed" }],
  ["promotion needs confirmation: back in line", { waitlistedAt: true, chargeStatus: "requires_action" }],
  ["withdrawn before the tip", { withdrawnAt: true, memberSince: true }],
  ["withdrawn after a change, refunded", { withdrawnAt: true, memberSince: true, chargeStatus: "refunded" }],
  ["withdrawn conditional", { withdrawnAt: true, minPeople: 6 }],
  ["left the waitlist", { withdrawnAt: true, waitlistedAt: true }],
  [
    "gave up, refund waiting",
    { withdrawnAt: true, memberSince: true, gaveUpAt: true, chargeStatus: "succeeded" },
  ],
  ["gave up, refunded", { withdrawnAt: true, memberSince: true, gaveUpAt: true, chargeStatus: "refunded" }],
  ["gave up, never charged", { withdrawnAt: true, memberSince: true, gaveUpAt: true }],
  ["dropped unpaid", { withdrawnAt: true, memberSince: true, droppedAt: true, chargeStatus: "failed" }],
  [
    "dropped, late payment refunded",
    { withdrawnAt: true, memberSince: true, droppedAt: true, chargeStatus: "refunded" },
  ],
  ["condition released at the deadline", { withdrawnAt: true, minPeople: 9, conditionReleasedAt: true }],
  ["waitlist closed at the start", { withdrawnAt: true, waitlistedAt: true, waitlistClosedAt: true }],
  [
    "waitlist closed while paused",
    { withdrawnAt: true, waitlistedAt: true, waitlistClosedAt: true, chargeStatus: "failed" },
  ],
];

const migration = fs.readFileSync(
  path.join(
    __dirname,
    "../../prisma/migrations",
    fs
      .readdirSync(path.join(__dirname, "../../prisma/migrations"))
      .find((d) => d.endsWith("_pledge_standing"))!,
    "migration.sql",
  ),
  "utf8",
);
/** The migration's own backfill statement, run as written. */
const BACKFILL = migration.match(/UPDATE "Pledge" SET "standing" = [^;]+;/)![0];

async function insertOldShape(campaignId: string, m: Markers) {
  const user = await createUser();
  const at = (on?: boolean) => (on ? new Date("2026-11-20T10:00:00Z") : null);
  const charged = m.chargeStatus === "succeeded" || m.chargeStatus === "refunded";
  return db.pledge.create({
    data: {
      campaignId,
      userId: user.id,
      contributor: user.email,
      withdrawnAt: at(m.withdrawnAt),
      waitlistedAt: at(m.waitlistedAt),
      memberSince: at(m.memberSince),
      minPeople: m.minPeople ?? null,
      promotedAt: at(m.promotedAt),
      conditionReleasedAt: at(m.conditionReleasedAt),
      waitlistClosedAt: at(m.waitlistClosedAt),
      gaveUpAt: at(m.gaveUpAt),
      droppedAt: at(m.droppedAt),
      chargeStatus: m.chargeStatus ?? "none",
      charged,
      chargedAt: charged ? new Date("2026-11-21T10:00:00Z") : null,
      paymentIntentId: charged ? `pi_${user.id}` : null,
    },
    select: { id: true, standing: true },
  });
}

describe("Pledge.standing (issue 32)", () => {
  it("the trigger writes the standing the old decoding gave, for every combination the code produces", async () => {
    const c = await createCampaign();
    for (const [name, m] of COMBINATIONS) {
      const row = await insertOldShape(c.id, m);
      expect(row.standing, name).toBe(referenceStanding(m));
    }
  });

  it("the migration's backfill gives the same standings to rows of the old shape", async () => {
    const c = await createCampaign();
    const ids: [string, Markers, string][] = [];
    for (const [name, m] of COMBINATIONS) ids.push([(await insertOldShape(c.id, m)).id, m, name]);
    // rows as they were before the migration: the column at its default, whatever the markers say
    await db.$transaction([
      db.$executeRawUnsafe(`ALTER TABLE "Pledge" DISABLE TRIGGER pn_standing`),
      db.$executeRawUnsafe(
        `ALTER TABLE "Pledge" DROP CONSTRAINT "Pledge_standing_charge_check", DROP CONSTRAINT "Pledge_released_uncharged_check"`,
      ),
      db.$executeRawUnsafe(`UPDATE "Pledge" SET "standing" = 'in' WHERE "campaignId" = '${c.id}'`),
      db.$executeRawUnsafe(BACKFILL),
      db.$executeRawUnsafe(`ALTER TABLE "Pledge" ENABLE TRIGGER pn_standing`),
      db.$executeRawUnsafe(
        migration.match(/ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_standing_charge_check"[^;]+;/)![0] +
          migration.match(/ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_released_uncharged_check"[^;]+;/)![0],
      ),
    ]);
    const rows = new Map(
      (await db.pledge.findMany({ where: { campaignId: c.id }, select: { id: true, standing: true } })).map(
        (r) => [r.id, r.standing],
      ),
    );
    for (const [id, m, name] of ids) expect(rows.get(id), name).toBe(referenceStanding(m));
  });

  it("the column cannot be set apart from its markers", async () => {
    const c = await createCampaign();
    const row = await insertOldShape(c.id, { memberSince: true });
    await db.pledge.update({ where: { id: row.id }, data: { standing: "withdrawn" } });
    expect((await db.pledge.findUniqueOrThrow({ where: { id: row.id } })).standing).toBe("in");
    await db.pledge.update({ where: { id: row.id }, data: { withdrawnAt: new Date() } });
    expect((await db.pledge.findUniqueOrThrow({ where: { id: row.id } })).standing).toBe("withdrawn");
  });

  it("money is taken only on a counted place: the database refuses a charge on a place never counted", async () => {
    const c = await createCampaign();
    for (const m of [
      { waitlistedAt: true },
      { minPeople: 5 },
      { withdrawnAt: true, minPeople: 9, conditionReleasedAt: true },
      { withdrawnAt: true, waitlistedAt: true, waitlistClosedAt: true },
    ] satisfies Markers[]) {
      for (const chargeStatus of ["succeeded", "processing", "refunded"] as const)
        await expect(insertOldShape(c.id, { ...m, chargeStatus }), JSON.stringify(m)).rejects.toThrow(
          /Pledge_standing_charge_check|Pledge_released_uncharged_check|Pledge_charged_member_check/,
        );
    }
    const waiting = await insertOldShape(c.id, { waitlistedAt: true });
    await expect(
      db.pledge.update({
        where: { id: waiting.id },
        data: { chargeStatus: "processing" },
      }),
    ).rejects.toThrow(/Pledge_standing_charge_check/);
  });
});
