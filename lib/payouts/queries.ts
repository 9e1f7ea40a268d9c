import "server-only";
import { db } from "@/lib/db";
import { getPayoutAccount, type PayoutAccountView } from "@/lib/payouts/accounts";
import { ledgerOf, payoutAvailableAt, type Ledger } from "@/lib/payouts/ledger";
import { csvCell } from "@/lib/format";
import { CONFIRMED_STATUSES } from "@/lib/events/lifecycle";
import { depositKeptAt } from "@/lib/events/deposit";

/**
 * The organizer's payouts page and CSV, and the admins' attention list (issue 23). Every figure is
 * the ledger's (lib/payouts/ledger.ts); nothing here computes money on its own.
 */
export type PayoutEvent = {
  campaignId: string;
  title: string;
  status: string;
  fundedAt: string;
  availableAt: string;
  timeZone: string;
  held: { reason: string; at: string } | null;
  shortfallCents: number;
  ledger: Ledger;
  paidOutCents: number;
  pendingCents: number;
  /** when the pending money is expected to move (null: held, account not ready, or nothing pending) */
  nextPayoutAt: string | null;
  /** issue 36: the event takes a show-up deposit; held ones are kept (or paid out) from `keptAt` */
  deposit: { cents: number; keptAt: string | null } | null;
};

export type PayoutMovement = {
  id: string;
  campaignId: string;
  title: string;
  kind: "transfer" | "reversal";
  amountCents: number;
  status: string;
  providerId: string | null;
  at: string;
  timeZone: string;
  failureMessage: string | null;
};

export type PayoutsView = {
  account: PayoutAccountView;
  events: PayoutEvent[];
  totals: Omit<Ledger, "feesUnknown" | "inFlight"> & { paidOutCents: number; pendingCents: number };
  movements: PayoutMovement[];
};

const campaignSelect = {
  id: true,
  title: true,
  status: true,
  fundedAt: true,
  timeZone: true,
  payoutHoldReason: true,
  payoutHeldAt: true,
  payoutShortfallCents: true,
  depositCents: true,
  depositGraceHours: true,
  startsAt: true,
  endsAt: true,
} as const;

async function eventRow(
  c: {
    id: string;
    title: string;
    status: string;
    fundedAt: Date | null;
    timeZone: string;
    payoutHoldReason: string | null;
    payoutHeldAt: Date | null;
    payoutShortfallCents: bigint;
    depositCents: number;
    depositGraceHours: number;
    startsAt: Date | null;
    endsAt: Date | null;
  },
  accountReady: boolean,
  now: Date,
): Promise<PayoutEvent> {
  const ledger = await ledgerOf(db, c.id);
  const fundedAt = c.fundedAt ?? now;
  const availableAt = payoutAvailableAt(fundedAt);
  const paidOutCents = ledger.transferredCents - ledger.reversedCents;
  const pendingCents = Math.max(0, ledger.dueCents);
  const held =
    c.payoutHoldReason && c.payoutHeldAt
      ? { reason: c.payoutHoldReason, at: c.payoutHeldAt.toISOString() }
      : null;
  return {
    campaignId: c.id,
    title: c.title,
    status: c.status,
    fundedAt: fundedAt.toISOString(),
    availableAt: availableAt.toISOString(),
    timeZone: c.timeZone,
    held,
    shortfallCents: Number(c.payoutShortfallCents),
    ledger,
    paidOutCents,
    pendingCents,
    nextPayoutAt:
      pendingCents > 0 && !held && accountReady
        ? new Date(Math.max(availableAt.getTime(), now.getTime())).toISOString()
        : null,
    deposit:
      c.depositCents > 0 || ledger.depositChargedCents > 0
        ? { cents: c.depositCents, keptAt: depositKeptAt(c)?.toISOString() ?? null }
        : null,
  };
}

/** The signed-in organizer's payouts: their account, each tipped paid event, totals and movements. */
export async function getPayoutsView(viewer: { id: string }, now = new Date()): Promise<PayoutsView> {
  const account = await getPayoutAccount(viewer.id);
  const campaigns = await db.campaign.findMany({
    where: {
      creatorId: viewer.id,
      fundedAt: { not: null },
      OR: [{ ticketPriceCents: { gt: 0 } }, { pactType: "crowdfund" }, { depositCents: { gt: 0 } }],
    },
    select: campaignSelect,
    orderBy: { fundedAt: "desc" },
    take: 200,
  });
  const events: PayoutEvent[] = [];
  for (const c of campaigns) events.push(await eventRow(c, account.status === "ready", now));
  const sum = (f: (e: PayoutEvent) => number) => events.reduce((n, e) => n + f(e), 0);
  const movements = await db.payout.findMany({
    where: { campaign: { creatorId: viewer.id } },
    orderBy: { createdAt: "desc" },
    take: 200,
    select: {
      id: true,
      campaignId: true,
      kind: true,
      amountCents: true,
      status: true,
      providerId: true,
      createdAt: true,
      completedAt: true,
      failureMessage: true,
      campaign: { select: { title: true, timeZone: true } },
    },
  });
  return {
    account,
    events,
    totals: {
      collectedCents: sum((e) => e.ledger.collectedCents),
      refundedCents: sum((e) => e.ledger.refundedCents),
      owedBackCents: sum((e) => e.ledger.owedBackCents),
      platformFeeCents: sum((e) => e.ledger.platformFeeCents),
      processingFeeCents: sum((e) => e.ledger.processingFeeCents),
      netCents: sum((e) => e.ledger.netCents),
      transferredCents: sum((e) => e.ledger.transferredCents),
      reversedCents: sum((e) => e.ledger.reversedCents),
      dueCents: sum((e) => e.ledger.dueCents),
      paidOutCents: sum((e) => e.paidOutCents),
      pendingCents: sum((e) => e.pendingCents),
      chargeCount: sum((e) => e.ledger.chargeCount),
      refundCount: sum((e) => e.ledger.refundCount),
      keptCount: sum((e) => e.ledger.keptCount),
      depositChargedCents: sum((e) => e.ledger.depositChargedCents),
      depositRefundedCents: sum((e) => e.ledger.depositRefundedCents),
      depositHeldCents: sum((e) => e.ledger.depositHeldCents),
      depositKeptCents: sum((e) => e.ledger.depositKeptCents),
      depositFeeCents: sum((e) => e.ledger.depositFeeCents),
      depositKeptCount: sum((e) => e.ledger.depositKeptCount),
    },
    movements: movements.map((m) => ({
      id: m.id,
      campaignId: m.campaignId,
      title: m.campaign.title,
      kind: m.kind,
      amountCents: Number(m.amountCents),
      status: m.status,
      providerId: m.providerId,
      at: (m.completedAt ?? m.createdAt).toISOString(),
      timeZone: m.campaign.timeZone,
      failureMessage: m.failureMessage,
    })),
  };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The payouts page as CSV: one row per event, amounts in dollars. */
export async function getPayoutsCsv(viewer: { id: string }): Promise<string> {
  const view = await getPayoutsView(viewer);
  const header = [
    "Event",
    "Tipped at (UTC)",
    "Payout available (UTC)",
    "Collected (USD)",
    "Refunded (USD)",
    "Refunds pending (USD)",
    "Platform fee (USD)",
    "Processing fee (USD)",
    "Net (USD)",
    "Paid out (USD)",
    "Pending (USD)",
    "Held",
    // issue 36: the show-up deposits (the ledger's): held until the end plus the grace, kept, the fee on those kept
    "Deposits held (USD)",
    "Deposits held until (UTC)",
    "Deposits kept (USD)",
    "Platform fee on kept deposits (USD)",
    "Deposits refunded (USD)",
  ];
  const rows = view.events.map((e) =>
    [
      e.title,
      e.fundedAt,
      e.availableAt,
      dollars(e.ledger.collectedCents),
      dollars(e.ledger.refundedCents),
      dollars(e.ledger.owedBackCents),
      dollars(e.ledger.platformFeeCents),
      dollars(e.ledger.processingFeeCents),
      dollars(e.ledger.netCents),
      dollars(e.paidOutCents),
      dollars(e.pendingCents),
      e.held ? e.held.reason : "",
      ...(e.deposit
        ? [
            dollars(e.ledger.depositHeldCents),
            e.ledger.depositHeldCents > 0 ? (e.deposit.keptAt ?? "") : "",
            dollars(e.ledger.depositKeptCents),
            dollars(e.ledger.depositFeeCents),
            dollars(e.ledger.depositRefundedCents),
          ]
        : ["", "", "", "", ""]),
    ].map(csvCell),
  );
  return [header.map(csvCell), ...rows].map((r) => r.join(",")).join("\r\n") + "\r\n";
}

/** The rows behind the admin's payout attention list (each list at most 50). */
function attentionRows() {
  return Promise.all([
    db.payoutAccount.findMany({
      where: { status: "restricted" },
      select: { userId: true, requirements: true, updatedAt: true, user: { select: { email: true } } },
      orderBy: { updatedAt: "desc" },
      take: 50,
    }),
    db.campaign.findMany({
      where: { payoutHeldAt: { not: null } },
      select: { id: true, title: true, payoutHoldReason: true, payoutHeldAt: true },
      orderBy: { payoutHeldAt: "desc" },
      take: 50,
    }),
    db.campaign.findMany({
      where: { payoutShortfallCents: { gt: 0 } },
      select: { id: true, title: true, payoutShortfallCents: true },
      take: 50,
    }),
    db.payout.findMany({
      where: { status: "failed" },
      select: {
        id: true,
        campaignId: true,
        kind: true,
        amountCents: true,
        failureMessage: true,
        createdAt: true,
        campaign: { select: { title: true } },
      },
      orderBy: { createdAt: "desc" },
      take: 50,
    }),
    // tipped paid events whose money has not all moved yet (an admin may hold them)
    db.campaign.findMany({
      where: {
        fundedAt: { not: null },
        payoutSettledAt: null,
        payoutHeldAt: null,
        status: { in: [...CONFIRMED_STATUSES] },
        OR: [{ ticketPriceCents: { gt: 0 } }, { pactType: "crowdfund" }, { depositCents: { gt: 0 } }],
      },
      select: { id: true, title: true, fundedAt: true, creator: { select: { email: true } } },
      orderBy: { fundedAt: "asc" },
      take: 50,
    }),
  ]);
}

/** What admins must look at: accounts needing attention, held payouts, refunds not taken back, failed movements. */
export async function getPayoutAttention() {
  const [accounts, held, shortfalls, failed, upcoming] = await attentionRows();
  return {
    accounts: accounts.map((a) => ({
      userId: a.userId,
      email: a.user.email,
      requirements: a.requirements,
      at: a.updatedAt.toISOString(),
    })),
    held: held.map((c) => ({
      id: c.id,
      title: c.title,
      reason: c.payoutHoldReason ?? "",
      at: c.payoutHeldAt!.toISOString(),
    })),
    upcoming: await Promise.all(
      upcoming.map(async (c) => ({
        id: c.id,
        title: c.title,
        organizer: c.creator.email,
        availableAt: payoutAvailableAt(c.fundedAt!).toISOString(),
        pendingCents: Math.max(0, (await ledgerOf(db, c.id)).dueCents),
      })),
    ),
    shortfalls: shortfalls.map((c) => ({ id: c.id, title: c.title, cents: Number(c.payoutShortfallCents) })),
    failed: failed.map((p) => ({
      id: p.id,
      campaignId: p.campaignId,
      title: p.campaign.title,
      kind: p.kind,
      cents: Number(p.amountCents),
      message: p.failureMessage ?? "",
      at: p.createdAt.toISOString(),
    })),
  };
}
