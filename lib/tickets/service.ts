import "server-only";
import { db, Prisma } from "@/lib/db";
import { CONFIRMED_STATUSES } from "@/lib/events/lifecycle";
import { statusIn } from "@/lib/events/sql";
import { standingSql } from "@/lib/events/standing";
import {
  hashTicketToken,
  newTicketCode,
  newTicketToken,
  sealTicketToken,
  unsealTicketToken,
} from "@/lib/security/ticket-token";

/**
 * Issuing door tickets (issue 36, docs/decisions/tickets.md). A confirmed place — a charged pledge
 * (a free event's are charged at $0, chargeType "free") that holds its place in an event that tipped —
 * has exactly one ticket. Issuing is idempotent and safe under concurrency: the pledge id is unique,
 * so a second issuer's row is skipped (ON CONFLICT DO NOTHING waits for the first transaction), and a
 * short code that collides within the event is drawn again.
 */
type Tx = Prisma.TransactionClient;
type Client = Tx | typeof db;

const ROUNDS = 5;

/** The confirmed places without a ticket, of one event (some pledges of it, or all). */
async function unticketed(tx: Client, campaignId: string, pledgeIds?: string[]): Promise<string[]> {
  const only = pledgeIds ? Prisma.sql`AND p.id = ANY(${pledgeIds}::text[])` : Prisma.empty;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM "Pledge" p JOIN "Campaign" c ON c.id = p."campaignId"
    WHERE p."campaignId" = ${campaignId} ${only} AND p.charged = true
      AND ${Prisma.raw(standingSql(["in"], "p"))} AND c.status IN (${statusIn(CONFIRMED_STATUSES)})
      AND NOT EXISTS (SELECT 1 FROM "Ticket" t WHERE t."pledgeId" = p.id)`;
  return rows.map((r) => r.id);
}

/**
 * Gives every confirmed place of `campaignId` (or of `pledgeIds` in it) its ticket, inside the
 * caller's transaction or on its own. Returns how many this call issued.
 */
export async function issueTickets(tx: Client, campaignId: string, pledgeIds?: string[]): Promise<number> {
  if (pledgeIds && pledgeIds.length === 0) return 0;
  let issued = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const due = await unticketed(tx, campaignId, pledgeIds);
    if (due.length === 0) return issued;
    const data = due.map((pledgeId) => {
      const token = newTicketToken();
      const sealed = sealTicketToken(token);
      return {
        pledgeId,
        campaignId,
        tokenHash: hashTicketToken(token),
        tokenSealed: sealed,
        code: newTicketCode(),
      };
    });
    // ON CONFLICT DO NOTHING: a place another issuer ticketed meanwhile, or a code already drawn
    issued += (await tx.ticket.createMany({ data, skipDuplicates: true })).count;
  }
  const left = await unticketed(tx, campaignId, pledgeIds);
  if (left.length > 0)
    throw new Error(`tickets: ${left.length} place(s) of ${campaignId} left without a ticket`);
  return issued;
}

/**
 * The sweeper (lib/tickets/jobs.ts): every confirmed place still without a ticket gets one — places
 * confirmed before tickets existed, or by a path that wrote no "Event Confirmed!" (a promotion) — so
 * the door finds every ticket whether or not its holder looked. Up to `take` events a run.
 */
export async function issueMissingTickets(take = 50): Promise<number> {
  const events = await db.$queryRaw<{ campaignId: string }[]>`
    SELECT DISTINCT p."campaignId" FROM "Pledge" p JOIN "Campaign" c ON c.id = p."campaignId"
    WHERE p.charged = true AND ${Prisma.raw(standingSql(["in"], "p"))} AND c.status IN (${statusIn(CONFIRMED_STATUSES)})
      AND NOT EXISTS (SELECT 1 FROM "Ticket" t WHERE t."pledgeId" = p.id)
    LIMIT ${take}`;
  let issued = 0;
  for (const e of events) issued += await issueTickets(db, e.campaignId);
  return issued;
}

/**
 * The raw token of a ticket, for its holder. A seal that no longer opens (NEXTAUTH_SECRET was changed
 * without keeping the old one) is replaced by a new token, sealed with the current secret; the code
 * stays. Only the holder's own reads call this.
 */
export async function openTicketToken(ticket: { id: string; tokenSealed: string }): Promise<string> {
  const token = unsealTicketToken(ticket.tokenSealed);
  if (token) return token;
  const fresh = newTicketToken();
  const n = await db.ticket.updateMany({
    where: { id: ticket.id, tokenSealed: ticket.tokenSealed },
    data: { tokenHash: hashTicketToken(fresh), tokenSealed: sealTicketToken(fresh) },
  });
  if (n.count === 1) return fresh;
  // another read re-sealed it first: use theirs
  const now = await db.ticket.findUniqueOrThrow({ where: { id: ticket.id }, select: { tokenSealed: true } });
  const theirs = unsealTicketToken(now.tokenSealed);
  if (!theirs) throw new Error("tickets: the ticket's seal cannot be opened");
  return theirs;
}

/**
 * A seat changed hands (issue 37, named friends): its ticket gets a new token and a new code, so the
 * one its last holder may have printed stops admitting. The row (and any check-in on it) stays, one
 * ticket per pledge. A seat without a ticket yet is ticketed when it is confirmed, as any.
 */
export async function reissueTicket(tx: Tx, pledgeId: string): Promise<boolean> {
  for (let round = 0; round < ROUNDS; round++) {
    const token = newTicketToken();
    const code = newTicketCode();
    const n = await tx.$executeRaw`
      UPDATE "Ticket" t SET "tokenHash" = ${hashTicketToken(token)}, "tokenSealed" = ${sealTicketToken(token)},
        code = ${code}, "issuedAt" = now()
      WHERE t."pledgeId" = ${pledgeId}
        AND NOT EXISTS (SELECT 1 FROM "Ticket" o WHERE o."campaignId" = t."campaignId" AND o.code = ${code})`;
    if (n === 1) return true;
    if (!(await tx.ticket.findUnique({ where: { pledgeId }, select: { id: true } }))) return false;
  }
  throw new Error(`tickets: no free code to re-issue the ticket of ${pledgeId}`);
}
