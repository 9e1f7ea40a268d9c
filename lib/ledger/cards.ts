import "server-only";
import { db } from "@/lib/db";
import { getGateway, paymentsMode } from "@/lib/payments/gateway";
import { CALLED_OFF_STATUSES, CANCELLABLE_STATUSES, STANDING_PLEDGE } from "@/lib/events/lifecycle";

/**
 * Card release (issue 32: it lives with the ledger; the deadline job, withdrawal, giving up and the
 * waitlist call here). A pledge that will never be charged forgets its card, and in Stripe mode the
 * card is detached from the backer's customer unless another live pledge still needs it — or the
 * backer saved it for next time (issue 37, a SavedCard row): a card on file stays attached until the
 * backer removes it (lib/pledges/saved-cards.ts).
 */

/** A pledge whose card may go: never charged (its event called off), or withdrawn with no charge in flight. */
const NEVER_CHARGED = { chargeStatus: "none" } as const;
const WITHDRAWN_AT_REST = { withdrawnAt: { not: null }, chargeStatus: { not: "processing" } } as const;

/**
 * In Stripe mode, detaches a pledge's card from the backer's customer unless the backer keeps it on
 * file (issue 37) or a live pledge of an event still collecting or charging uses it (other than
 * `exceptPledgeId`). True when the card is free to
 * forget (detached, already gone, or still needed elsewhere); false when detaching failed and should
 * be retried. Demo cards need no detaching.
 */
export async function detachIfUnused(
  paymentMethodId: string,
  exceptPledgeId: string,
  gateway = getGateway(),
): Promise<boolean> {
  if (paymentsMode() !== "stripe") return true;
  // a card on file (issue 37): the pledge forgets it, the backer keeps it for next time
  if ((await db.savedCard.count({ where: { paymentMethodId } })) > 0) return true;
  const stillNeeded = await db.pledge.count({
    where: {
      id: { not: exceptPledgeId },
      paymentMethodId,
      ...STANDING_PLEDGE, // a waiting commitment still needs its card
      campaign: { status: { in: [...CANCELLABLE_STATUSES] } },
    },
  });
  if (stillNeeded > 0) return true;
  try {
    await gateway.detach(paymentMethodId);
    return true;
  } catch (err) {
    // Already detached or gone (Stripe answers 400/404): released all the same. Otherwise retry later.
    const status = (err as { statusCode?: number })?.statusCode;
    if (status === 400 || status === 404) return true;
    console.warn(`[ledger] detaching a card failed, will retry: ${(err as Error)?.message}`);
    return false;
  }
}

/**
 * Releases the saved cards of expired (and cancelled, never charged) events and of withdrawn
 * pledges (DESIGN §1 "withdrawing"): the pledge forgets the card, and in Stripe mode the card is
 * detached from the customer unless another live pledge still needs it. Resumable: a pledge keeps
 * its card until its release succeeded. `pledgeId`: just that one (right after a withdrawal).
 */
export async function releaseSavedCards(take = 200, pledgeId?: string): Promise<number> {
  const pledges = await db.pledge.findMany({
    where: {
      ...(pledgeId ? { id: pledgeId } : {}),
      paymentMethodId: { not: null },
      OR: [{ ...NEVER_CHARGED, campaign: { status: { in: [...CALLED_OFF_STATUSES] } } }, WITHDRAWN_AT_REST],
    },
    take,
    select: { id: true, userId: true, paymentMethodId: true },
  });
  let released = 0;
  for (const p of pledges) {
    const pm = p.paymentMethodId!;
    if (!(await detachIfUnused(pm, p.id))) continue;
    if (await releaseCard(p.id, pm)) released++;
  }
  return released;
}

/**
 * The pledge forgets its saved card (an event called off, never charged; or a withdrawn pledge, once
 * no charge of it is in flight); only if still that card.
 */
async function releaseCard(pledgeId: string, paymentMethodId: string): Promise<boolean> {
  const { count } = await db.pledge.updateMany({
    where: {
      id: pledgeId,
      paymentMethodId,
      OR: [NEVER_CHARGED, WITHDRAWN_AT_REST],
    },
    data: { paymentMethodId: null },
  });
  return count > 0;
}
