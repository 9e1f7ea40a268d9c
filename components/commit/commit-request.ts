import type { ActionResult } from "@/lib/actions";
import type { CommitResult } from "@/lib/pledges/decide";
import { COMMIT_MESSAGES } from "@/lib/access/pledge-policy";

export type CommitRequest = {
  campaignId: string;
  paymentMethodId?: string;
  /** issue 37: "Save this card for next time" was ticked */
  saveCard?: boolean;
  amount?: string;
  minPeople?: number;
};

/**
 * The commit, sent to POST /api/campaigns/{id}/commit (issue 35 item 3: a route handler costs the
 * server less than the server action did). The answer is the action's old shape; a refusal the
 * route could not phrase itself (a cross-origin refusal, a proxy's error page) reads as its message
 * or the dialog's "please try again". A network failure throws, as the action's call did.
 */
export async function postCommit({
  campaignId,
  ...rest
}: CommitRequest): Promise<ActionResult<CommitResult>> {
  const res = await fetch(`/api/campaigns/${encodeURIComponent(campaignId)}/commit`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(rest),
  });
  const body: unknown = await res.json().catch(() => null);
  if (body && typeof body === "object" && typeof (body as { ok?: unknown }).ok === "boolean")
    return body as ActionResult<CommitResult>;
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return { ok: false, error: typeof message === "string" ? message : COMMIT_MESSAGES.saveFailed };
}
