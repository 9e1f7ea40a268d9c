import { getViewer } from "@/lib/access/viewer";
import { COMMIT_MESSAGES } from "@/lib/access/pledge-policy";
import type { ActionResult } from "@/lib/actions";
import { AppError, describeError } from "@/lib/errors";
import { handle } from "@/lib/http";
import type { CommitResult } from "@/lib/pledges/decide";
import { commitToCampaign } from "@/lib/pledges/service";
import { logUnexpected } from "@/lib/security/redact";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ campaignId: string }> };

/** With its length, so the answer goes out in one write, not chunked (issue 35 item 3). */
function answer(body: ActionResult<CommitResult>, status = 200, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  return new Response(text, {
    status,
    headers: {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(text)),
      "cache-control": "private, no-store",
      ...headers,
    },
  });
}

/**
 * POST {paymentMethodId?, amount?, minPeople?} → the commit (SPEC §4 commit flow): what the commit
 * dialog sends. Answers the shape the dialog reads, `{ ok: true, data }` or `{ ok: false, error,
 * fieldErrors? }`, with the refusal's status (401 signed out, 404, 409 already committed, 429 …).
 *
 * A route handler, not a server action (issue 35 item 3, commits/s): Next's action handling — the
 * page's module graph, the reply decoding, a Flight stream for a few hundred bytes of JSON — cost
 * about 1 ms of CPU more per commit. The event comes from the path; the rules, authorization and
 * rate limit are lib/pledges/service commitToCampaign's, as before.
 */
export const POST = handle(async (req: Request, { params }: Params) => {
  const { campaignId } = await params;
  let body: unknown;
  try {
    const text = await req.text();
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new AppError("BAD_REQUEST", "The request body must be valid JSON.");
  }
  const input = body && typeof body === "object" && !Array.isArray(body) ? { ...body, campaignId } : body;
  try {
    return answer({ ok: true, data: await commitToCampaign(await getViewer(), input) });
  } catch (err) {
    const known = describeError(err);
    if (known)
      return answer(
        { ok: false, error: known.message, ...(known.fieldErrors ? { fieldErrors: known.fieldErrors } : {}) },
        known.status,
        known.status === 503 ? { "Retry-After": "5" } : {},
      );
    logUnexpected("[api] commit: unexpected error", err);
    return answer({ ok: false, error: COMMIT_MESSAGES.saveFailed }, 500);
  }
});
