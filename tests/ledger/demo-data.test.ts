import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { refundOwedPledges } from "@/lib/ledger/refunds";

const { seedDemo } = await import("@/scripts/demo-data");

/**
 * Issue 32 item 2 on the demo data (made by the app's own charging, refunds and payouts): its money
 * rows add up to what the demo gateway holds, and the migration's backfill, run over the old columns
 * the same data left, writes the very rows the code wrote (for what the old columns kept: each
 * pledge's last charge, its refund, every payout).
 */
const migration = fs.readFileSync(
  path.join(
    __dirname,
    "../../prisma/migrations",
    fs
      .readdirSync(path.join(__dirname, "../../prisma/migrations"))
      .find((d) => d.endsWith("_money_movements"))!,
    "migration.sql",
  ),
  "utf8",
);
const BACKFILL = [
  ...migration.matchAll(/INSERT INTO "MoneyMovement"[^;]+;/g),
  ...migration.matchAll(/UPDATE "MoneyMovement"[^;]+;/g),
].map((m) => m[0]);

beforeAll(async () => {
  expect(await seedDemo()).toBe(true);
}, 180_000);

type Row = Awaited<ReturnType<typeof db.moneyMovement.findMany>>[number];
const shape = (r: Row, byId: Map<bigint, Row>) => ({
  kind: r.kind,
  purpose: r.purpose,
  state: r.state,
  amountCents: Number(r.amountCents),
  providerId: r.providerId,
  idempotencyKey: r.idempotencyKey,
  campaignId: r.campaignId,
  pledgeId: r.pledgeId,
  payoutId: r.payoutId,
  failureCode: r.failureCode,
  source: r.sourceId === null ? null : byId.get(r.sourceId)!.idempotencyKey,
});
const byKey = (a: { idempotencyKey: string }, b: { idempotencyKey: string }) =>
  a.idempotencyKey < b.idempotencyKey ? -1 : 1;

describe("the demo data's money rows", () => {
  it("add up to what the demo gateway holds, one succeeded charge row per payment it made", async () => {
    const intents = await db.demoPaymentIntent.findMany({ where: { status: "succeeded" } });
    expect(intents.length).toBeGreaterThan(0);
    const charges = await db.moneyMovement.findMany({ where: { kind: "charge", state: "succeeded" } });
    // issue 36: a show-up deposit is its own row of the same payment (the ticket row's key + "-deposit")
    const deposits = new Map(
      charges.filter((c) => c.purpose === "deposit").map((c) => [c.idempotencyKey, Number(c.amountCents)]),
    );
    const payments = charges
      .filter((c) => c.purpose === "ticket")
      .map((c) => [
        c.providerId,
        c.idempotencyKey,
        Number(c.amountCents) + (deposits.get(`${c.idempotencyKey}-deposit`) ?? 0),
      ]);
    expect(payments.sort()).toEqual(intents.map((pi) => [pi.id, pi.idempotencyKey, pi.amountCents]).sort());
    const refunds = await db.moneyMovement.findMany({ where: { kind: "refund", state: "succeeded" } });
    // a partial refund (a deposit) leaves the rest of its payment held
    const held = intents
      .filter((pi) => !pi.refunded)
      .reduce((s, pi) => s + pi.amountCents - pi.refundedCents, 0);
    const rows =
      charges.reduce((s, c) => s + Number(c.amountCents), 0) -
      refunds.reduce((s, r) => s + Number(r.amountCents), 0);
    expect(rows).toBe(held);
    // every payout movement has its row, in the same state
    const payouts = await db.payout.findMany({ include: { movement: true } });
    expect(payouts.length).toBeGreaterThan(0);
    for (const p of payouts) expect(p.movement?.state).toBe(p.status);
  });

  it("are what the migration's backfill writes from the old columns", async () => {
    // a refund too: a charged backer withdraws (as after a date change) and is refunded by the ledger
    // a ticket payment alone (an event with a show-up deposit refunds its deposit too: two refunds)
    const paid = await db.pledge.findFirstOrThrow({
      where: { chargeStatus: "succeeded", chargeType: "paid", campaign: { depositCents: 0 } },
      orderBy: { id: "asc" },
    });
    await db.pledge.update({ where: { id: paid.id }, data: { withdrawnAt: new Date() } });
    expect(await refundOwedPledges(paid.campaignId)).toBe(1);

    const written = await db.moneyMovement.findMany();
    const writtenById = new Map(written.map((r) => [r.id, r]));
    const pledges = new Map((await db.pledge.findMany()).map((p) => [p.id, p]));
    // what the old columns kept: a pledge's last payment (not a claim in flight), its refund, each payout
    const kept = written.filter((r) => {
      // issue 36's deposit rows came after the old columns: the backfill never knew them
      if (r.purpose === "deposit") return false;
      if (r.kind !== "charge" && r.kind !== "refund") return true;
      const p = pledges.get(r.pledgeId!)!;
      if (r.kind === "refund") return r.providerId !== null && r.providerId === p.refundId;
      return r.providerId === p.paymentIntentId && p.chargeStatus !== "processing";
    });
    expect(new Set(kept.map((r) => r.kind))).toEqual(new Set(["charge", "refund", "transfer"]));
    expect(kept.some((r) => r.state === "failed")).toBe(true); // the demo's declined card

    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`UPDATE "MoneyMovement" SET "sourceId" = NULL`);
      await tx.$executeRawUnsafe(`DELETE FROM "MoneyMovement"`);
      for (const sql of BACKFILL) await tx.$executeRawUnsafe(sql);
    });
    const backfilled = await db.moneyMovement.findMany();
    const backfilledById = new Map(backfilled.map((r) => [r.id, r]));
    expect(backfilled.map((r) => shape(r, backfilledById)).sort(byKey)).toEqual(
      kept.map((r) => shape(r, writtenById)).sort(byKey),
    );
  });
});
