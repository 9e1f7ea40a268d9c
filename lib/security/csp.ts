/**
 * Content-Security-Policy (issue 9). Pages rendered per request get a fresh nonce and a strict
 * policy ('strict-dynamic': only scripts carrying the nonce, and what they load, run). The cached
 * copies under /v/ (visitors' and members' pages, and static pages such as /roadmap) get a nonce of
 * their own per copy (proxy.ts, lib/cache/signed-path.ts). 'unsafe-inline' is left only for a
 * prerendered route reached without the proxy's rewrite.
 * Stripe's domains are allowed only when Stripe is enabled.
 */
type CspOptions = {
  nonce?: string;
  stripe: boolean;
  dev: boolean;
  /** the cover images' bucket (S3_PUBLIC_URL), when covers are served from one */
  imagesUrl?: string;
};

/** The origin of a configured URL, or nothing when it is not one. */
const originOf = (url: string | undefined): string[] => {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};

const STRIPE = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com", "https://merchant-ui-api.stripe.com"],
  img: ["https://*.stripe.com"],
};

export function buildCsp({ nonce, stripe, dev, imagesUrl }: CspOptions): string {
  const script = ["'self'", nonce ? `'nonce-${nonce}' 'strict-dynamic'` : "'unsafe-inline'"];
  if (dev) script.push("'unsafe-eval'");
  if (stripe) script.push(...STRIPE.script);
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": script,
    // React writes style attributes (progress widths); inline styles cannot run code.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...(stripe ? STRIPE.img : []), ...originOf(imagesUrl)],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...(stripe ? STRIPE.connect : []), ...(dev ? ["ws:"] : [])],
    "frame-src": stripe ? STRIPE.frame : ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  if (!dev) directives["upgrade-insecure-requests"] = [];
  return Object.entries(directives)
    .map(([k, v]) => (v.length ? `${k} ${v.join(" ")}` : k))
    .join("; ");
}

/** Routes served from the prerender/ISR cache (no per-request nonce possible). */
export function isCachedRoute(pathname: string): boolean {
  return pathname === "/roadmap" || pathname === "/v" || pathname.startsWith("/v/");
}
