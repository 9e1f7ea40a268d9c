import { canModerate, isApproved, type Actor } from "@/lib/access/rules";

/** SPEC §4/§6: comments need a signed-in user and an approved event; admins may always comment. */
export function canComment(actor: Actor, campaign: { approvalStatus: string }): boolean {
  if (!actor) return false;
  return canModerate(actor) || isApproved(campaign);
}
