import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import type { Actor } from "@/lib/access/rules";
import { CANCELLABLE_STATUSES, STANDING_PLEDGE } from "@/lib/events/lifecycle";
import { getGateway } from "@/lib/payments/gateway";
import { isHardDecline } from "@/lib/payments/declines";
import { isRecoverable } from "@/lib/ledger/pledge-state";
import type { CardSummary, PaymentGateway } from "@/lib/payments/types";
import { changeCommitmentCard } from "@/lib/pledges/withdraw";

/**
 * A card on file (issue 37 item 2, docs/decisions/card-on-file.md). The card stays at the payment
 * provider (a PaymentMethod on the person's one Customer, or a demo token); a SavedCard row is the
 * person's choice to keep it for next time. The next paid commitment offers the default one ("Pay
 * with Visa ·4242"), releasing a commitment never detaches it (lib/ledger/cards.ts), and removing
 * it here moves the commitments it backs to another card first.
 */
export const SAVED_CARD_TEXTS = {
  notYours: "That card is not one of your saved cards.",
  sameCard: "Choose a different card for these commitments.",
  removed: "The card is removed.",
  madeDefault: "This card is now your default.",
  cannotMove: (title: string, why: string) => `The card could not move off “${title}”: ${why}`,
} as const;

const paymentMethodIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_]+$/, SAVED_CARD_TEXTS.notYours);

const cardInputSchema = z.object({ paymentMethodId: paymentMethodIdSchema }).strict();
const removeInputSchema = z
  .object({ paymentMethodId: paymentMethodIdSchema, replacementId: paymentMethodIdSchema.optional() })
  .strict();

export type SavedCardView = {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
};

/** The person's saved cards, the one a commitment is offered first (the default, else the newest) first. */
export async function listSavedCards(userId: string): Promise<SavedCardView[]> {
  const rows = await db.savedCard.findMany({
    where: { userId },
    orderBy: [{ isDefault: "desc" }, { createdAt: "desc" }],
    select: {
      paymentMethodId: true,
      brand: true,
      last4: true,
      expMonth: true,
      expYear: true,
      isDefault: true,
    },
  });
  return rows.map((r, i) => ({ ...r, isDefault: i === 0 }));
}

/** The card the next paid commitment offers in one tap, or null. */
export async function defaultSavedCard(viewer: Actor): Promise<SavedCardView | null> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  return (await listSavedCards(viewer.id))[0] ?? null;
}

/**
 * The saved card the pay page offers in one tap for the viewer's own failed (or authentication-blocked)
 * payment, or null. Another saved card comes first; the card that failed only when the bank may say
 * yes on a new try: a soft decline, or authentication (now done with the backer present). A hard
 * decline (lost, expired, closed…) never offers that card again. The charge itself checks the card
 * with the provider as any on-session payment (lib/charging/recovery payPledgeOnSession).
 */
export async function recoveryCard(viewer: Actor, pledgeId: string): Promise<SavedCardView | null> {
  if (!viewer) return null;
  const pledge = await db.pledge.findFirst({
    where: { id: pledgeId, userId: viewer.id },
    select: { paymentMethodId: true, chargeStatus: true, chargeFailureCode: true },
  });
  if (!pledge || !isRecoverable(pledge.chargeStatus)) return null;
  const failedMayRetry =
    pledge.chargeStatus === "requires_action" || !isHardDecline(pledge.chargeFailureCode);
  const cards = await listSavedCards(viewer.id);
  const failed = (c: SavedCardView) => c.paymentMethodId === pledge.paymentMethodId;
  return cards.find((c) => !failed(c)) ?? (failedMayRetry ? (cards.find(failed) ?? null) : null);
}

/**
 * Keeps `card` on file for `userId` (the box "Save this card for next time" was ticked). The caller has
 * checked with the provider that the card is theirs (gateway.getCard). The newly saved card becomes the
 * default: it is the one the person just chose.
 */
export async function rememberCard(userId: string, card: CardSummary): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.savedCard.updateMany({ where: { userId, isDefault: true }, data: { isDefault: false } });
    const data = {
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      isDefault: true,
    };
    // the card's id is unique at the provider and it is this person's: an upsert on it is theirs only
    await tx.savedCard.upsert({
      where: { paymentMethodId: card.paymentMethodId },
      create: { userId, paymentMethodId: card.paymentMethodId, ...data },
      update: data,
    });
  });
}

async function ownCard(actor: Actor, paymentMethodId: string) {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const row = await db.savedCard.findFirst({ where: { userId: actor.id, paymentMethodId } });
  if (!row) throw new AppError("NOT_FOUND", SAVED_CARD_TEXTS.notYours);
  return { ...row, actor };
}

/** "Make default" on the profile: the next paid commitment offers this card. Only one's own card. */
export async function makeDefaultCard(actor: Actor, input: unknown): Promise<{ isDefault: true }> {
  const { paymentMethodId } = parseInput(cardInputSchema, input, { message: SAVED_CARD_TEXTS.notYours });
  const { userId } = await ownCard(actor, paymentMethodId);
  await db.$transaction([
    db.savedCard.updateMany({ where: { userId, isDefault: true }, data: { isDefault: false } }),
    db.savedCard.updateMany({ where: { userId, paymentMethodId }, data: { isDefault: true } }),
  ]);
  return { isDefault: true };
}

export type BackedCommitment = { campaignId: string; title: string };

/**
 * The commitments a card backs: the person's standing commitments (counted, conditional or waiting)
 * not paid yet, of events still collecting or going ahead — what would be charged with it.
 */
export async function commitmentsBackedBy(
  userId: string,
  paymentMethodId: string,
): Promise<BackedCommitment[]> {
  const rows = await db.pledge.findMany({
    where: {
      userId,
      paymentMethodId,
      charged: false,
      ...STANDING_PLEDGE,
      campaign: { status: { in: [...CANCELLABLE_STATUSES] } },
    },
    orderBy: { createdAt: "asc" },
    select: { campaignId: true, campaign: { select: { title: true } } },
  });
  return rows.map((r) => ({ campaignId: r.campaignId, title: r.campaign.title }));
}

export type RemoveCardResult =
  { status: "removed" } | { status: "needs_replacement"; commitments: BackedCommitment[] };

/**
 * "Remove" on the profile. A card that backs any commitment needs another card for those first:
 * without `replacementId` nothing changes and the commitments are named; with it (another saved
 * card, or one just saved through the card sheet, which is kept on file too) each commitment moves
 * to it through the commitment's own card change (its rules and lock), then the card is forgotten and
 * detached from the person's customer. Only one's own cards, and a replacement the provider says is theirs.
 */
export async function removeSavedCard(
  actor: Actor,
  input: unknown,
  opts: { gateway?: PaymentGateway } = {},
): Promise<RemoveCardResult> {
  const { paymentMethodId, replacementId } = parseInput(removeInputSchema, input, {
    message: SAVED_CARD_TEXTS.notYours,
  });
  const { userId, actor: me } = await ownCard(actor, paymentMethodId);
  const gateway = opts.gateway ?? getGateway();
  const backed = await commitmentsBackedBy(userId, paymentMethodId);
  if (backed.length > 0) {
    if (!replacementId) return { status: "needs_replacement", commitments: backed };
    if (replacementId === paymentMethodId) throw new AppError("BAD_REQUEST", SAVED_CARD_TEXTS.sameCard);
    const replacement = await gateway.getCard(me, replacementId); // refuses anyone else's card
    if (!(await db.savedCard.findFirst({ where: { userId, paymentMethodId: replacementId } })))
      await rememberCard(userId, replacement);
    for (const b of backed) {
      try {
        await changeCommitmentCard(
          me,
          { campaignId: b.campaignId, paymentMethodId: replacementId },
          { gateway },
        );
      } catch (err) {
        if (err instanceof AppError)
          throw new AppError(err.code, SAVED_CARD_TEXTS.cannotMove(b.title, err.message));
        throw err;
      }
    }
    // a commitment made with the card meanwhile: asked again, nothing forgotten
    const still = await commitmentsBackedBy(userId, paymentMethodId);
    if (still.length > 0) return { status: "needs_replacement", commitments: still };
  }
  await db.savedCard.deleteMany({ where: { userId, paymentMethodId } });
  await detachQuietly(gateway, paymentMethodId);
  return { status: "removed" };
}

/** Detaches a removed card; already gone is fine, and a provider hiccup leaves it attached but forgotten. */
async function detachQuietly(gateway: PaymentGateway, paymentMethodId: string) {
  try {
    await gateway.detach(paymentMethodId);
  } catch (err) {
    console.warn(`[cards] detaching a removed card failed: ${(err as Error)?.message}`);
  }
}
