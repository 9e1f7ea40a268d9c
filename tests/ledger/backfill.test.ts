import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { chargeIdempotencyKey } from "@/lib/payments/types";
import { createCampaign, createUser } from "@/tests/helpers/factories";

/**
 * Issue 32 item 2: the migration money_movements moves today's money columns into rows — each
 * pledge's last charge (Pledge.paymentIntentId, chargeStatus, amountCents, chargedAt), its refund
 * (refundId, refundedAt) and every Payout row. Rows of the old shape are written here without any
 * movement, then the migration's own backfill statements run on them as written (limited to this
 * fixture's event, so other rows of the test database stay as they are).
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

/** The backfill, scoped to one event's pledges and payouts. */
function scoped(campaignId: string): string[] {
  return BACKFILL.map((sql) => {
    const out = sql
      .replace(`FROM "Pledge" p`, `FROM (SELECT * FROM "Pledge" WHERE "campaignId" = '${campaignId}') p`)
      .replace(`FROM "Payout" o`, `FROM (SELECT * FROM "Payout" WHERE "campaignId" = '${campaignId}') o`);
    expect(out).not.toBe(sql);
    return out;
  });
}

type Old = {
  chargeStatus: "none" | "processing" | "succeeded" | "failed" | "requires_action" | "refunded";
  chargeType?: "paid" | "free";
  paymentIntentId?: string;
  chargeAttempts?: number;
  chargeFailureCode?: string;
  refundId?: string;
  amountCents: number;
};

describe("money movements backfill", () => {
  it("turns the old columns into one row per charge, refund and payout, once", async () => {
    expect(BACKFILL).toHaveLength(4);
    const organizer = await createUser();
    const campaign = await createCampaign({
      creatorId: organizer.id,
      ticketPriceCents: 2500,
      status: "charged",
    });
    const tag = campaign.id.slice(-8);
    const shapes: Record<string, Old> = {
      charged: {
        chargeStatus: "succeeded",
        paymentIntentId: `pi_${tag}_1`,
        chargeAttempts: 1,
        amountCents: 2500,
      },
      refunded: {
        chargeStatus: "refunded",
        paymentIntentId: `pi_${tag}_2`,
        chargeAttempts: 2,
        refundId: `re_${tag}_2`,
        amountCents: 2500,
      },
      declined: {
        chargeStatus: "failed",
        paymentIntentId: `pi_${tag}_3`,
        chargeAttempts: 1,
        chargeFailureCode: "card_declined",
        amountCents: 2500,
      },
      authenticating: {
        chargeStatus: "requires_action",
        paymentIntentId: `pi_${tag}_4`,
        chargeAttempts: 3,
        chargeFailureCode: "authentication_required",
        amountCents: 2500,
      },
      // a claim in flight: its last payment is an earlier attempt's; the run holding it records the outcome
      claimed: {
        chargeStatus: "processing",
        paymentIntentId: `pi_${tag}_5`,
        chargeAttempts: 2,
        amountCents: 2500,
      },
      uncharged: { chargeStatus: "none", amountCents: 2500 },
      free: { chargeStatus: "succeeded", chargeType: "free", amountCents: 0 },
    };
    const ids: Record<string, string> = {};
    const chargedAt = new Date(Date.now() - 86_400_000);
    for (const [name, s] of Object.entries(shapes)) {
      const u = await createUser();
      const p = await db.pledge.create({
        data: {
          campaignId: campaign.id,
          userId: u.id,
          contributor: name,
          memberSince: new Date(),
          amountCents: s.amountCents,
          chargeStatus: s.chargeStatus,
          chargeType: s.chargeType ?? (s.paymentIntentId ? "paid" : null),
          charged: s.chargeStatus === "succeeded" || s.chargeStatus === "refunded",
          chargedAt: s.chargeStatus === "succeeded" || s.chargeStatus === "refunded" ? chargedAt : null,
          paymentIntentId: s.paymentIntentId,
          chargeAttempts: s.chargeAttempts ?? 0,
          chargeFailureCode: s.chargeFailureCode,
          refundId: s.refundId,
          refundedAt: s.refundId ? new Date() : null,
        },
      });
      ids[name] = p.id;
    }
    const transfer = await db.payout.create({
      data: {
        campaignId: campaign.id,
        seq: 1,
        kind: "transfer",
        amountCents: 4400n,
        accountId: `acct_${tag}`,
        status: "succeeded",
        providerId: `tr_${tag}`,
        completedAt: new Date(),
      },
    });
    const reversal = await db.payout.create({
      data: {
        campaignId: campaign.id,
        seq: 2,
        kind: "reversal",
        amountCents: 2200n,
        accountId: `acct_${tag}`,
        status: "succeeded",
        providerId: `trr_${tag}`,
        reversedPayoutId: transfer.id,
        completedAt: new Date(),
      },
    });
    const refused = await db.payout.create({
      data: {
        campaignId: campaign.id,
        seq: 3,
        kind: "transfer",
        amountCents: 100n,
        accountId: `acct_${tag}`,
        status: "failed",
        failureMessage: "no",
      },
    });
    expect(await db.moneyMovement.count({ where: { campaignId: campaign.id } })).toBe(0);

    for (const sql of scoped(campaign.id)) await db.$executeRawUnsafe(sql);
    const rows = await db.moneyMovement.findMany({
      where: { campaignId: campaign.id },
      orderBy: { id: "asc" },
    });
    const pick = (r: (typeof rows)[number]) => ({
      kind: r.kind,
      purpose: r.purpose,
      state: r.state,
      amountCents: Number(r.amountCents),
      providerId: r.providerId,
      idempotencyKey: r.idempotencyKey,
      pledgeId: r.pledgeId,
      payoutId: r.payoutId,
      failureCode: r.failureCode,
    });
    const charge = (name: string, state: string, attempt: number, failureCode: string | null = null) => ({
      kind: "charge",
      purpose: "ticket",
      state,
      amountCents: 2500,
      providerId: shapes[name].paymentIntentId,
      idempotencyKey: chargeIdempotencyKey(ids[name], attempt),
      pledgeId: ids[name],
      payoutId: null,
      failureCode,
    });
    const payout = (p: typeof transfer, kind: string, state: string) => ({
      kind,
      purpose: "payout",
      state,
      amountCents: Number(p.amountCents),
      providerId: p.providerId,
      idempotencyKey: `payout-${campaign.id}-${p.seq}`,
      pledgeId: null,
      payoutId: p.id,
      failureCode: null,
    });
    expect(rows.map(pick)).toEqual(
      expect.arrayContaining([
        charge("charged", "succeeded", 1),
        charge("refunded", "succeeded", 2),
        charge("declined", "failed", 1, "card_declined"),
        charge("authenticating", "requires_action", 3, "authentication_required"),
        {
          kind: "refund",
          purpose: "ticket",
          state: "succeeded",
          amountCents: 2500,
          providerId: shapes.refunded.refundId,
          idempotencyKey: `refund-${ids.refunded}`,
          pledgeId: ids.refunded,
          payoutId: null,
          failureCode: null,
        },
        payout(transfer, "transfer", "succeeded"),
        payout(reversal, "reversal", "succeeded"),
        payout(refused, "transfer", "failed"),
      ]),
    );
    expect(rows).toHaveLength(8); // nothing for the claim in flight, the uncharged or the free pledge
    // links: the refund names its charge, the reversal its transfer
    const byKey = new Map(rows.map((r) => [r.idempotencyKey, r]));
    expect(byKey.get(`refund-${ids.refunded}`)!.sourceId).toBe(
      byKey.get(chargeIdempotencyKey(ids.refunded, 2))!.id,
    );
    expect(byKey.get(`payout-${campaign.id}-2`)!.sourceId).toBe(byKey.get(`payout-${campaign.id}-1`)!.id);
    // the charged pledge's charge keeps when it was charged
    expect(byKey.get(chargeIdempotencyKey(ids.charged, 1))!.createdAt.getTime()).toBe(chargedAt.getTime());

    // running it again changes nothing
    for (const sql of scoped(campaign.id)) await db.$executeRawUnsafe(sql);
    const again = await db.moneyMovement.findMany({
      where: { campaignId: campaign.id },
      orderBy: { id: "asc" },
    });
    expect(again).toEqual(rows);
  });
});
