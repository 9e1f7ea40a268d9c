import { NextResponse, type NextRequest } from "next/server";
import { buildCsp, isCachedRoute } from "@/lib/security/csp";

/**
 * Runs before every page request: a per-request CSP nonce for dynamically rendered pages (Next
 * reads it from the request's Content-Security-Policy header and stamps its scripts), and the
 * policy on the response. Other security headers are static and live in next.config.mjs.
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

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const stripe = Boolean(process.env.STRIPE_SECRET_KEY && process.env.NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY);
  const dev = process.env.NODE_ENV === "development";

  if (isCachedRoute(pathname)) {
    const response = NextResponse.next();
    response.headers.set("Content-Security-Policy", buildCsp({ stripe, dev }));
    if (isHttps(request)) response.headers.set("Strict-Transport-Security", HSTS);
    return response;
  }

  const nonce = btoa(crypto.randomUUID());
  const csp = buildCsp({ nonce, stripe, dev });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  if (isHttps(request)) response.headers.set("Strict-Transport-Security", HSTS);
  return response;
}

export const config = {
  matcher: [
    // Documents only: not API routes, static files, images or prefetches.
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico|.*\\.(?:png|jpg|svg|ico|txt|xml|ics|csv)$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
