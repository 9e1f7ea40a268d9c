import { unsubscribe, verifyUnsubscribeToken } from "@/lib/email/unsubscribe";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };
const INVALID = "This unsubscribe link is not valid. Use the link in your most recent email.";

/**
 * One-click unsubscribe (RFC 8058): the List-Unsubscribe header of a reminder, digest or update
 * names this address, and the person's mail program POSTs `List-Unsubscribe=One-Click` to it. The
 * token (an HMAC of the user id, lib/email/unsubscribe) is the only authority; no session, no
 * page. Anything else in the body is ignored, as the RFC asks.
 */
export async function POST(request: Request) {
  const token = new URL(request.url).searchParams.get("token");
  const ok = await unsubscribe(token);
  return ok
    ? new Response("You are unsubscribed from PactNexus reminders and updates.", {
        status: 200,
        headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" },
      })
    : new Response(INVALID, {
        status: 400,
        headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" },
      });
}

/**
 * Opening the header's address in a browser (or a mail scanner fetching it) changes nothing: it
 * leads to the page that asks to confirm.
 */
export async function GET(request: Request) {
  const token = new URL(request.url).searchParams.get("token");
  const page = verifyUnsubscribeToken(token)
    ? `/unsubscribe?token=${encodeURIComponent(token!)}`
    : "/unsubscribe?invalid=1";
  return new Response(null, { status: 303, headers: { ...NO_STORE, Location: page } });
}
