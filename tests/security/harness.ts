/**
 * Shared by the security suites: who is asking, and a fingerprint of everything a request could
 * change. Test files must declare these mocks themselves (vi.mock is hoisted per file):
 *
 *   vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));
 *   vi.mock("next/headers", () => headersMock);
 *
 * The request's cookies are the only seam: actAs() makes next/headers' cookies() carry a real
 * session token for that user (minted with NEXTAUTH_SECRET), and getViewer() decodes it and reads
 * the user (and isAdmin) from the database, exactly as in production.
 */
import { encode } from "next-auth/jwt";
import pg from "pg";

export type SessionUser = { id: string; email: string } | null;

let requestHeaders: Record<string, string> = {};
let sessionUser: SessionUser = null;

/** The cookies of a request by `user` (none for null): a session token like NextAuth's. */
export async function sessionCookies(user: SessionUser) {
  const list = user
    ? [
        {
          name: "next-auth.session-token",
          value: await encode({
            token: { sub: user.id, email: user.email },
            secret: process.env.NEXTAUTH_SECRET!,
          }),
        },
      ]
    : [];
  return {
    get: (name: string) => list.find((c) => c.name === name),
    getAll: () => list,
    has: (name: string) => list.some((c) => c.name === name),
  };
}

/** Stand-in for next/headers outside a request (signUpAction reads the client IP from it). */
export const headersMock = {
  headers: async () => new Headers(requestHeaders),
  cookies: async () => sessionCookies(sessionUser),
};

export function setRequestHeaders(h: Record<string, string>) {
  requestHeaders = h;
}

/** Makes the next requests carry this user's session cookie (null: signed out). */
export function actAs(user: SessionUser) {
  sessionUser = user;
}

/**
 * Tables a request may change, hashed row by row. RateLimitHit is left out on purpose: a refused
 * attempt is still counted by the abuse limits (that is the point of them).
 */
export const TABLES = [
  "User",
  "Account",
  "Campaign",
  "Pledge",
  "Comment",
  "CampaignUpdate",
  "CampaignDraft",
  "ModerationLog",
  "EmailOutbox",
  "StripeEvent",
  "DemoPaymentMethod",
  "DemoPaymentIntent",
  "CheckIn",
  "DoorHelper",
] as const;

let pool: pg.Pool | undefined;
export const sql = () => (pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 }));

export async function closeFingerprintPool() {
  await pool?.end();
  pool = undefined;
}

/** One md5 per table over every row's text form: equal fingerprints mean nothing was written. */
export async function fingerprint(): Promise<Record<string, string>> {
  const parts = TABLES.map(
    (t) =>
      `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS h FROM "${t}" x`,
  );
  const { rows } = await sql().query<{ t: string; h: string }>(parts.join(" UNION ALL "));
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}

/** A readable outcome of any entry point, for allow/deny assertions. */
export type Outcome = { kind: "ok" | "denied" | "refused" | "error"; status?: number; message?: string };

/** Route handler response → outcome: 2xx ok, 401/403/404 denied, other 4xx refused, 5xx error. */
export async function responseOutcome(res: Response): Promise<Outcome> {
  const text = await res.text();
  let message: string | undefined;
  try {
    message = JSON.parse(text)?.error?.message;
  } catch {
    message = undefined;
  }
  if (res.status < 400) return { kind: "ok", status: res.status };
  if ([401, 403, 404].includes(res.status)) return { kind: "denied", status: res.status, message };
  if (res.status < 500) return { kind: "refused", status: res.status, message };
  return { kind: "error", status: res.status, message: message ?? text.slice(0, 200) };
}

/** Server action result → outcome; `denials` are the action's "not for you" messages. */
export function actionOutcome(
  result: { ok: boolean; error?: string } | void,
  denials: readonly string[],
): Outcome {
  if (!result || result.ok) return { kind: "ok" };
  return { kind: denials.includes(result.error!) ? "denied" : "refused", message: result.error };
}
