import "server-only";
import { db, type Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { withEvent } from "@/lib/events/lock";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { canManageEvent, canOverseeEvent, canSeeEvent, type Actor } from "@/lib/access/rules";

/**
 * The server side of the access rules (lib/access/rules.ts): loads a campaign for what an actor
 * wants to do with it, or refuses. It replaces the lock → load → not found → forbidden sequence each
 * service used to write. An event the actor may not see is "not found" (its existence is not
 * revealed); one they may see but not act on is "forbidden" with the action's own message.
 */
export type CampaignAction =
  /** see it (comment, check-and-charge, read lists) */
  | "see"
  /** manage it: the creator only (SPEC §6) — denied as "not found or no permission" */
  | "manage"
  /** post an update: the creator only, the event visible */
  | "update"
  /** cancel it: the creator or an admin */
  | "cancel"
  /** run the manual charge: the creator or an admin — denied as "not found or no permission" */
  | "charge";

const BASE = { id: true, creatorId: true, approvalStatus: true } as const;

type Base = { id: string; creatorId: string; approvalStatus: string };

function refusal(actor: Actor, c: Base | null, action: CampaignAction): AppError | null {
  switch (action) {
    case "manage":
      return c && canManageEvent(actor, c) ? null : new AppError("NOT_FOUND", ACCESS_TEXTS.manageDenied);
    case "charge":
      return c && canOverseeEvent(actor, c) ? null : new AppError("NOT_FOUND", ACCESS_TEXTS.manageDenied);
    default:
      break;
  }
  if (!c || !canSeeEvent(actor, c)) return new AppError("NOT_FOUND", ACCESS_TEXTS.campaignNotFound);
  if (action === "update" && !canManageEvent(actor, c))
    return new AppError("FORBIDDEN", ACCESS_TEXTS.updateDenied);
  if (action === "cancel" && !canOverseeEvent(actor, c))
    return new AppError("FORBIDDEN", ACCESS_TEXTS.cancelDenied);
  return null;
}

/**
 * The campaign `id` with `select` (plus id, creatorId, approvalStatus) if `actor` may do `action`
 * with it; throws AppError otherwise. With `lock`, the row is locked FOR UPDATE first (pass the
 * transaction as `tx`), so the decision and the writes after it see the same row.
 */
export async function loadCampaignFor<S extends Prisma.CampaignSelect>(
  actor: Actor,
  id: string,
  action: CampaignAction,
  opts: { tx?: Prisma.TransactionClient; lock?: boolean; select?: S } = {},
): Promise<Prisma.CampaignGetPayload<{ select: S & typeof BASE }>> {
  const client = opts.tx ?? db;
  const load = async () => {
    const select = { ...(opts.select ?? {}), ...BASE } as S & typeof BASE;
    const c = (await client.campaign.findUnique({ where: { id }, select })) as Prisma.CampaignGetPayload<{
      select: S & typeof BASE;
    }> | null;
    const denied = refusal(actor, c as Base | null, action);
    if (denied) throw denied;
    return c!;
  };
  if (!opts.lock) return load();
  // the event's row lock (lib/events/lock.ts), then the decision on the locked row
  return withEvent(client, id, async (row) => {
    if (!row) throw refusal(actor, null, action)!;
    return load();
  });
}
