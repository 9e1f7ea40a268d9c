import pg from "pg";

/**
 * Database gate for page requests (used by proxy.ts; no "server-only" import because the proxy is
 * compiled outside the React Server Components layer).
 *
 * Why a gate: a page that throws while rendering (its query found the database unreachable) can
 * only answer 500 — App Router pages have no way to set a status from an error boundary. So the
 * proxy asks this gate first and answers 503 with a message while the database is unreachable;
 * route handlers already map the same failure to 503 through lib/http.ts.
 *
 * Cost: one `SELECT 1` on a dedicated one-connection pool at most every OK_TTL_MS per instance
 * (concurrent requests share one check), so a healthy site pays nothing measurable. While the
 * database is down, re-checked every DOWN_TTL_MS, so the site recovers by itself within a
 * fraction of a second of Postgres coming back, without a restart. Requests already rendering
 * when the database dies, and those within OK_TTL_MS of it, are not covered (they fail as before).
 */
const OK_TTL_MS = 500;
const DOWN_TTL_MS = 250;
const PING_TIMEOUT_MS = 3_000;

type GateState = {
  ok: boolean;
  checkedAt: number;
  pending: Promise<boolean> | null;
  pool: pg.Pool | null;
  url: string | null;
};

const holder = globalThis as unknown as { __pactnexusDbGate?: GateState };

function gateState(): GateState {
  holder.__pactnexusDbGate ??= { ok: true, checkedAt: 0, pending: null, pool: null, url: null };
  return holder.__pactnexusDbGate;
}

function poolFor(s: GateState, url: string): pg.Pool {
  if (!s.pool || s.url !== url) {
    void s.pool?.end().catch(() => {});
    const pool = new pg.Pool({
      connectionString: url,
      max: 1,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: PING_TIMEOUT_MS,
      query_timeout: PING_TIMEOUT_MS,
    });
    // An idle connection killed by a database restart must not crash the process.
    pool.on("error", () => {});
    s.pool = pool;
    s.url = url;
  }
  return s.pool;
}

/**
 * Only a refused or broken connection means "down". A ping that is merely slow (a saturated CPU
 * under load) is not an outage: answering 503 then would turn load into errors.
 */
const OUTAGE =
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EPIPE|57P01|57P02|57P03|08006|08001|08004|Connection terminated|the database system is (starting up|shutting down)/i;

async function ping(s: GateState): Promise<boolean> {
  const url = process.env.DATABASE_URL;
  if (!url) return true; // misconfiguration is reported by the app itself, not hidden behind a 503
  try {
    await poolFor(s, url).query("SELECT 1");
    return true;
  } catch (err) {
    const text = `${(err as { code?: string })?.code ?? ""} ${(err as Error)?.message ?? ""}`;
    return !OUTAGE.test(text);
  }
}

/** Whether the database answered recently (checked at most every OK_TTL_MS / DOWN_TTL_MS). */
export function databaseReachable(): Promise<boolean> | boolean {
  const s = gateState();
  if (Date.now() - s.checkedAt < (s.ok ? OK_TTL_MS : DOWN_TTL_MS)) return s.ok;
  s.pending ??= ping(s).then((ok) => {
    if (ok !== s.ok)
      console.warn(
        ok ? "[db] the database is reachable again" : "[db] the database is unreachable: pages answer 503",
      );
    s.ok = ok;
    s.checkedAt = Date.now();
    s.pending = null;
    return ok;
  });
  return s.pending;
}

/** The page shown instead of any document while the database is unreachable. */
export function unavailablePage(): Response {
  const nonce = btoa(crypto.randomUUID());
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Temporarily unavailable · PactNexus</title>
<style nonce="${nonce}">body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}main{max-width:28rem;margin:1.5rem;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;text-align:center}h1{font-size:1.25rem;margin:0 0 .75rem}p{margin:0 0 1.25rem;color:#475569;line-height:1.5}a{display:inline-block;padding:.625rem 1.25rem;border-radius:.5rem;background:#4f46e5;color:#fff;text-decoration:none;font-weight:600}</style>
</head><body><main><h1>PactNexus is temporarily unavailable</h1><p>We cannot reach our database right now. Please try again in a moment.</p><a href="">Try again</a></main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": "5",
      "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  });
}
