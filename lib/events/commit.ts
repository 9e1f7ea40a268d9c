import "server-only";
import type { outboxColumns } from "@/lib/email/service";
import { Prisma, queryOn } from "@/lib/db";
import { livePledgeSql } from "@/lib/events/sql";
import { eventIfCurrentSql } from "@/lib/events/lock";

/**
 * The commit transition (issue 32): a commitment's pledge row, the event's counters and, for the
 * common commit, its confirmation email, written in ONE statement — the only place a commit's INSERT
 * and counter UPDATE exist. Two ways in, one statement each, so no round trip is added:
 *  - `version` given (the common commit, decided on an unlocked read): the statement itself takes
 *    the event's row lock, only if the row is still that version (eventIfCurrentSql); a row that
 *    moved writes nothing and `locked` is false (the caller decides again).
 *  - `version` null: the caller holds the lock (withEvent) and decided on the locked row.
 * The unique live (campaignId, userId, guestSlot) index is the last word on a double commit: a conflict
 * inserts nothing and moves no counter (`pledgeId` null). Issue 37: a group's seats are inserted
 * together (the holder's own seat is the commitment's id and the group's id); the counters move by
 * the seats inserted. A group always commits under the caller's lock (no `version`), so its seats
 * are all inserted or none (the holder's own seat conflicts first).
 */

type Tx = Prisma.TransactionClient;

export type CommitWrite = {
  campaignId: string;
  pledgeId: string;
  userId: string;
  amount: number;
  amountCents: number;
  contributor: string;
  card: { paymentMethodId: string; brand: string; last4: string } | null;
  paymentMethod: string;
  minPeople: number | null;
  /** a full event (issue 20): it waits in line, moving only the waitlist's count */
  waitlisted: boolean;
  /** counted toward the goal on arrival (issue 21: written as memberSince) */
  member: boolean;
  /**
   * issue 37: the holder's extra seats (pledge ids, slots 1..n): the commitment is a group of
   * 1 + extra.length seats sharing the group id `pledgeId`; none: one seat. Counted like commits.
   */
  extraSeats?: string[];
  /** issue 37: the holder agreed that part of a waiting group may take places that open */
  partialOk?: boolean;
  /** the event's counters after this commit, as decided (lib/pledges/decide) */
  committedCount: number;
  raisedCents: number;
  now: Date;
};

/** An outbox row's columns (lib/email/service outboxColumns), with the row's own id. */
export type CommitEmail = ReturnType<typeof outboxColumns> & { id: string };

export type CommitOptions = {
  /** the row version the decision was made on; null when the caller holds withEvent */
  version: string | null;
  /** issue 21: the members as decided — the conditions up to it that do not count yet join now */
  joinUpTo: number | null;
  /** the confirmation, queued in the same statement (else the caller queues it in the transaction) */
  email: CommitEmail | null;
};

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** The commit: returns whether the row was locked (always, with no `version`) and the new pledge's id. */
export async function commit(
  client: Tx,
  w: CommitWrite,
  opts: CommitOptions,
): Promise<{ locked: boolean; pledgeId: string | null }> {
  const waiting = w.waitlisted ? 1 : 0;
  // issue 37: the holder's own seat first (slot 0, the commitment's id), then the extra seats
  const seatIds = [w.pledgeId, ...(w.extraSeats ?? [])];
  const group = seatIds.length > 1 ? w.pledgeId : null;
  const event = opts.version
    ? eventIfCurrentSql(w.campaignId, opts.version)
    : Prisma.sql`SELECT ${w.campaignId}::text AS id`;
  const join =
    opts.joinUpTo === null
      ? Prisma.empty
      : Prisma.sql`, j AS (
      UPDATE "Pledge" SET "memberSince" = ${w.now}
      WHERE "campaignId" IN (SELECT id FROM c) AND EXISTS (SELECT 1 FROM p) AND ${livePledgeSql()}
        AND "memberSince" IS NULL AND COALESCE("minPeople", 1) <= ${opts.joinUpTo}
      RETURNING id)`;
  const e = opts.email;
  const email = e
    ? Prisma.sql`, o AS (
      INSERT INTO "EmailOutbox" (id, "dedupeKey", "toEmail", subject, text, html, attachments, headers, status, attempts,
                                 "createdAt")
      SELECT ${e.id}, ${e.dedupeKey}, ${e.toEmail}, ${e.subject}, ${e.text}, ${e.html},
             ${json(e.attachments)}::jsonb, ${json(e.headers)}::jsonb, 'pending', 0, ${w.now} FROM p WHERE p.id = ${w.pledgeId}
      ON CONFLICT ("dedupeKey") DO NOTHING
      RETURNING id)`
    : Prisma.empty;
  const rows = await queryOn<{ locked: boolean; pledgeId: string | null }>(client)`
    WITH c AS (${event}), p AS (
      INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "paymentMethodId", "cardBrand",
                            "cardLast4", "paymentMethod", "createdAt", "waitlistedAt", "minPeople", "memberSince",
                            "groupId", "guestSlot", "partialOk")
      SELECT s.id, c.id, ${w.userId}, ${w.amount}, ${w.amountCents}, ${w.contributor},
             ${w.card?.paymentMethodId ?? null}, ${w.card?.brand ?? null}, ${w.card?.last4 ?? null},
             ${w.paymentMethod}, ${w.now}, ${w.waitlisted ? w.now : null}, ${w.minPeople}, ${w.member ? w.now : null},
             ${group}, (s.n - 1)::int, ${w.partialOk ?? false}
      FROM c, unnest(${seatIds}::text[]) WITH ORDINALITY AS s(id, n)
      -- a group's seats all or none: not beside a live commitment of the holder's own
      WHERE NOT EXISTS (SELECT 1 FROM "Pledge" x WHERE x."campaignId" = c.id AND x."userId" = ${w.userId}
                          AND x."guestSlot" = 0 AND x."withdrawnAt" IS NULL)
      ON CONFLICT ("campaignId", "userId", "guestSlot") WHERE "withdrawnAt" IS NULL DO NOTHING
      RETURNING id, amount
    )${join}, u AS (
      UPDATE "Campaign" SET "committedCount" = ${w.committedCount},
             "pledgeCount" = "pledgeCount" + (SELECT count(*) FROM p)::int * ${1 - waiting},
             "raisedCents" = ${w.raisedCents}, "currentAmount" = "currentAmount" + (SELECT sum(amount) FROM p)::int * ${1 - waiting},
             "waitlistCount" = "waitlistCount" + (SELECT count(*) FROM p)::int * ${waiting},
             "hasConditions" = "hasConditions" OR ${w.minPeople !== null}
      WHERE id IN (SELECT id FROM c) AND EXISTS (SELECT 1 FROM p WHERE id = ${w.pledgeId})
      RETURNING id
    )${email}
    SELECT EXISTS (SELECT 1 FROM c) AS locked, (SELECT id FROM p WHERE id = ${w.pledgeId}) AS "pledgeId"`;
  const row = rows[0];
  return { locked: row?.locked === true, pledgeId: row?.pledgeId ?? null };
}

/** One commit of a batch (commitMany): its pledge row as decided, and its confirmation. */
export type BatchedCommit = Omit<CommitWrite, "campaignId" | "now" | "committedCount" | "raisedCents"> & {
  /** counted toward the goal's people (committedCount + 1) */
  counts: boolean;
  /** its confirmation, and for a late commit to a confirmed free event its "Event Confirmed!" */
  emails: CommitEmail[];
};

/**
 * Group commit (issue 32, the hot event): several commits of ONE event, decided in arrival order on
 * the row at `version` (none of them tips, is late, waits in line or has a condition: those run
 * alone), written in ONE statement — the row lock taken once (compare-and-set on xmin, as the single
 * commit), every pledge inserted (a live pledge of the same person: that one is skipped by the unique
 * index), the counters moved by the sums of the rows actually inserted, and those rows' outbox rows.
 * `confirmed`: late commits to a confirmed free event (DESIGN §1 "free events": confirmed on
 * arrival): each pledge is inserted confirmed and the event's confirmed count moves with them.
 * Returns whether the row was locked and the ids of the pledges inserted.
 */
export async function commitMany(
  client: Tx,
  campaignId: string,
  version: string,
  batch: BatchedCommit[],
  now: Date,
  confirmed: boolean,
): Promise<{ locked: boolean; inserted: string[] }> {
  const rows = JSON.stringify(
    batch.map((w) => ({
      id: w.pledgeId,
      userId: w.userId,
      amount: w.amount,
      amountCents: w.amountCents,
      contributor: w.contributor,
      paymentMethodId: w.card?.paymentMethodId ?? null,
      cardBrand: w.card?.brand ?? null,
      cardLast4: w.card?.last4 ?? null,
      paymentMethod: w.paymentMethod,
      member: w.member,
      counts: w.counts,
    })),
  );
  const emails = JSON.stringify(batch.flatMap((w) => w.emails.map((e) => ({ pledgeId: w.pledgeId, ...e }))));
  // as lib/ledger/pledge-state confirmFreePledges confirms a free member, and setConfirmed counts it
  const confirmedColumns = confirmed
    ? Prisma.sql`, verified, charged, "chargedAt", "chargeType", "chargeStatus"`
    : Prisma.empty;
  const confirmedValues = confirmed
    ? Prisma.sql`, true, true, ${now}::timestamptz, 'free'::"ChargeType", 'succeeded'::"PledgeChargeStatus"`
    : Prisma.empty;
  const confirmedCount = confirmed ? Prisma.sql`, "totalCharged" = "totalCharged" + s.n` : Prisma.empty;
  const result = await queryOn<{ locked: boolean; inserted: string[] | null }>(client)`
    WITH c AS (${eventIfCurrentSql(campaignId, version)}),
    r AS (SELECT * FROM json_to_recordset(${rows}::json) AS r(id text, "userId" text, amount int, "amountCents" int,
            contributor text, "paymentMethodId" text, "cardBrand" text, "cardLast4" text, "paymentMethod" text,
            member boolean, counts boolean)),
    p AS (
      INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "paymentMethodId", "cardBrand",
                            "cardLast4", "paymentMethod", "createdAt", "waitlistedAt", "minPeople", "memberSince"${confirmedColumns})
      SELECT r.id, c.id, r."userId", r.amount, r."amountCents", r.contributor, r."paymentMethodId", r."cardBrand",
             r."cardLast4", r."paymentMethod", ${now}, NULL, NULL, CASE WHEN r.member THEN ${now}::timestamptz END${confirmedValues}
      FROM c, r
      ON CONFLICT ("campaignId", "userId", "guestSlot") WHERE "withdrawnAt" IS NULL DO NOTHING
      RETURNING id, amount, "amountCents"
    ), s AS (
      SELECT count(*)::int AS n, COALESCE(sum(p.amount), 0)::int AS amount, COALESCE(sum(p."amountCents"), 0)::int AS cents,
             count(*) FILTER (WHERE r.counts)::int AS counted
      FROM p JOIN r ON r.id = p.id
    ), u AS (
      UPDATE "Campaign" SET "committedCount" = "committedCount" + s.counted, "pledgeCount" = "pledgeCount" + s.n,
             "raisedCents" = "raisedCents" + s.cents, "currentAmount" = "currentAmount" + s.amount${confirmedCount}
      FROM s WHERE id IN (SELECT id FROM c) AND s.n > 0
      RETURNING "Campaign".id
    ), o AS (
      INSERT INTO "EmailOutbox" (id, "dedupeKey", "toEmail", subject, text, html, attachments, headers, status, attempts,
                                 "createdAt")
      SELECT e.id, e."dedupeKey", e."toEmail", e.subject, e.text, e.html, e.attachments, e.headers, 'pending', 0, ${now}
      FROM json_to_recordset(${emails}::json) AS e("pledgeId" text, id text, "dedupeKey" text, "toEmail" text, subject text,
             text text, html text, attachments jsonb, headers jsonb)
      WHERE e."pledgeId" IN (SELECT id FROM p)
      ON CONFLICT ("dedupeKey") DO NOTHING
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM c) AS locked, (SELECT array_agg(id) FROM p) AS inserted`;
  const row = result[0];
  return { locked: row?.locked === true, inserted: row?.inserted ?? [] };
}
