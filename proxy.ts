import { NextResponse, type NextRequest } from "next/server";
import { buildCsp, isCachedRoute } from "@/lib/security/csp";
import {
  campaignVersion,
  eventPageGate,
  homeVersion,
  memberCampaignVersion,
  memberHomeVersion,
} from "@/lib/cache/visitor-version";
import { sessionClaims } from "@/lib/access/session-cookie";
import { HOME_FILTERS } from "@/lib/campaigns/filters";
import { databaseReachable, unavailablePage } from "@/lib/health-gate";
import { copyNonce, signVersion } from "@/lib/cache/signed-path";
import { EVENT_PATH } from "@/lib/ids";

/**
 * Runs before every page request:
 *  - signed-out GETs of home and event pages are rewritten to the cached visitor copies (app/v/**),
 *    keyed by the data's current version (lib/cache/visitor-version.ts);
 *  - a per-request CSP nonce for pages rendered per request (Next reads it from the request's
 *    Content-Security-Policy header and stamps its scripts); cached pages get the nonce-less policy;
 *  - while the database is unreachable, a 503 page with a message instead (lib/health-gate.ts);
 *  - HSTS over https. Other security headers are static and live in next.config.mjs.
 */
const HSTS = "max-age=63072000; includeSubDomains; preload";

/** HSTS only when the app is served over https (production), never on plain-http localhost. */
function isHttps(request: NextRequest): boolean {
  return (
    request.nextUrl.protocol === "https:" ||
    request.headers.get("x-forwarded-proto") === "https" ||
    /^https:/.test(process.env.APP_URL || process.env.NEXTAUTH_URL || "")
  );
}

const hasSession = (request: NextRequest) =>
  request.cookies.getAll().some((c) => /^(__Secure-)?next-auth\.session-token(\.\d+)?$/.test(c.name));

/**
 * The home list's query, when it is one the cached copies serve ("/?filter=&page=" only). A search
 * (?q=) or a sort (?sort=) is rendered per request: endless distinct searches would otherwise each
 * make a cached copy and churn the cache (issue 34).
 */
function homeQuery(url: URL): { filter: string; page: string } | null {
  const params = url.searchParams;
  if ([...params.keys()].some((k) => k !== "filter" && k !== "page")) return null;
  const filter = params.get("filter") ?? "all";
  const page = params.get("page") ?? "1";
  if (!(HOME_FILTERS as readonly string[]).includes(filter) || !/^[1-9]\d{0,4}$/.test(page)) return null;
  return { filter, page };
}

/**
 * The cached copy's path, its version signed (lib/cache/signed-path.ts: the /v/ pages render only
 * signed versions). Resolved against the server's own origin (`request.url`), not `nextUrl`, whose
 * host comes from the Host header: Next treats a rewrite to another origin as an external proxy,
 * and behind the front server (or any real domain) the two differ.
 */
const copyPath = (scope: string, version: string, request: NextRequest) =>
  new URL(`/v/${scope}/${signVersion(scope, version)}`, request.url);
const homeCopy = (q: { filter: string; page: string }, version: string, request: NextRequest) =>
  copyPath(`home/${q.filter}/${q.page}`, version, request);
const eventCopy = (id: string, version: string, request: NextRequest) =>
  copyPath(`campaign/${id}`, version, request);

/**
 * A signed-in GET of home or an event page, served from a copy made for members where their page
 * is everyone's page (lib/cache/visitor-version.ts): home for every non-admin; an event page for
 * anyone who is neither its organizer nor an admin and has no pledge or comment among the newest it
 * lists (one copy for those who committed, one for the others), and for its organizer a copy of
 * their own, keyed by the event's version and theirs (issue 35). Everyone else, and anything
 * unusual, gets the per-request page.
 */
async function memberRewrite(request: NextRequest): Promise<URL | null> {
  if (request.method !== "GET" || !hasSession(request)) return null;
  const url = request.nextUrl;
  const home = url.pathname === "/" ? homeQuery(url) : null;
  const event = url.search === "" ? EVENT_PATH.exec(url.pathname) : null;
  if (!home && !event) return null;
  try {
    const session = await sessionClaims(request.cookies);
    if (!session) return null;
    if (home) {
      const version = await memberHomeVersion(session);
      return version ? homeCopy(home, version, request) : null;
    }
    const version = await memberCampaignVersion(event![1], session);
    return version ? eventCopy(event![1], version, request) : null;
  } catch {
    return null;
  }
}

/** Pages with the same content for everyone (/roadmap), served as cached copies so they carry a nonce of their own. */
const STATIC_COPIES = new Set(["/roadmap"]);
function staticRewrite(request: NextRequest): URL | null {
  if ((request.method !== "GET" && request.method !== "HEAD") || !STATIC_COPIES.has(request.nextUrl.pathname))
    return null;
  return copyPath(`static${request.nextUrl.pathname}`, "1", request);
}

/**
 * Where a signed-out request is served from the cache. Anything unusual (a notice to show, an odd
 * query, a database hiccup) is left to the per-request route, which handles it fully.
 */
async function visitorRewrite(request: NextRequest): Promise<URL | null> {
  if (request.method !== "GET" || hasSession(request)) return null;
  const url = request.nextUrl;
  try {
    if (url.pathname === "/") {
      const query = homeQuery(url);
      const version = query ? await homeVersion() : null;
      return query && version ? homeCopy(query, version, request) : null;
    }
    const m = EVENT_PATH.exec(url.pathname);
    if (m && url.search === "") {
      const version = await campaignVersion(m[1]);
      return version ? eventCopy(m[1], version, request) : null;
    }
  } catch {
    return null;
  }
  return null;
}

/** Any one-segment event path, a malformed id included ("/campaign/x'"): the gate answers for them all. */
const ANY_EVENT_PATH = /^\/campaign\/([^/]+)$/;

/**
 * Whether this event page request is for an event that does not exist for the viewer (issue 31):
 * checked before the page streams (its loading state would send 200 first), so the answer is a
 * 404 with SPEC's "Campaign not found" (app/v/missing-event). Pending and rejected events are
 * hidden from everyone but their organizer and admins (lib/cache/visitor-version eventPageGate).
 */
async function eventHidden(request: NextRequest): Promise<boolean> {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const m = ANY_EVENT_PATH.exec(request.nextUrl.pathname);
  if (!m) return false;
  try {
    const session = hasSession(request) ? await sessionClaims(request.cookies) : null;
    return (await eventPageGate(decodeURIComponent(m[1]), session)) === "hidden";
  } catch {
    return false; // a database hiccup: the page decides (and redirects home, as SPEC has it)
  }
}

export async function proxy(request: NextRequest) {
  // While the database is unreachable every page answers 503 with a message: a page whose render
  // fails can only answer 500, so the check comes first (lib/health-gate.ts; at most one ping per 500 ms).
  if (!(await databaseReachable())) return unavailablePage();
  const stripe = Boolean(process.env.STRIPE_SECRET_KEY && process.env.NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY);
  const dev = process.env.NODE_ENV === "development";
  const imagesUrl = process.env.S3_BUCKET ? process.env.S3_PUBLIC_URL : undefined;
  const finish = (response: NextResponse, csp: string) => {
    response.headers.set("Content-Security-Policy", csp);
    if (isHttps(request)) response.headers.set("Strict-Transport-Security", HSTS);
    return response;
  };

  // The cached copies (app/v) are reached only through the rewrites below, never asked for directly:
  // a copy is served only to the audience the proxy checked it was made for.
  if (/^\/v(\/|$)/.test(request.nextUrl.pathname))
    return finish(new NextResponse("Not found", { status: 404 }), buildCsp({ stripe, dev, imagesUrl }));

  const target = staticRewrite(request) ?? (await visitorRewrite(request));
  const member = target ? null : await memberRewrite(request);
  if (!target && !member && (await eventHidden(request))) {
    // rendered per request (force-dynamic), so it carries a fresh nonce like any other page
    const nonce = btoa(crypto.randomUUID());
    const csp = buildCsp({ nonce, stripe, dev, imagesUrl });
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set("x-nonce", nonce);
    requestHeaders.set("Content-Security-Policy", csp);
    const missing = new URL("/v/missing-event", request.url);
    return finish(NextResponse.rewrite(missing, { request: { headers: requestHeaders } }), csp);
  }
  if (target || member) {
    const copy = (target ?? member)!;
    // A cached copy cannot carry a per-request nonce: it gets one of its own, derived from its
    // (signed) path, given to the render on a miss and sent with the same policy on every hit.
    const nonce = copyNonce(copy.pathname);
    const csp = buildCsp({ nonce, stripe, dev, imagesUrl });
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set("x-nonce", nonce);
    requestHeaders.set("Content-Security-Policy", csp);
    const response = NextResponse.rewrite(copy, { request: { headers: requestHeaders } });
    // The copy is cached here, keyed by version; a shared HTTP cache keyed only by URL must not keep
    // it (and must never hand a member's copy to anyone else).
    response.headers.set("Cache-Control", `${member ? "private" : "public"}, max-age=0, must-revalidate`);
    return finish(response, csp);
  }
  if (isCachedRoute(request.nextUrl.pathname))
    return finish(NextResponse.next(), buildCsp({ stripe, dev, imagesUrl }));

  const nonce = btoa(crypto.randomUUID());
  const csp = buildCsp({ nonce, stripe, dev, imagesUrl });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  return finish(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

export const config = {
  // Documents only: not API routes, static files or images, nor server-action calls (their answer
  // is data, not a page: no CSP or cache rewrite applies, and lib/actions.ts turns a database
  // outage into a message; skipping the proxy halves the framework's work per commit — issue 8).
  // Every direct request for the cached copies (/v/…), whatever its headers or extension, goes
  // through the proxy, which refuses it: the second entry has no exclusions (issue 13).
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico|.*\\.(?:png|jpg|svg|ico|txt|xml|ics|csv)$).*)",
      missing: [{ type: "header", key: "next-action" }],
    },
    "/v",
    "/v/:path*",
  ],
};
