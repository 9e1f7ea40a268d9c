import { z } from "zod";

/**
 * Every environment variable the app reads, parsed once. `.env.example` documents each of them.
 * The start script (scripts/start.mjs) provides DATABASE_URL and NEXTAUTH_SECRET locally.
 */
const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required"),
  APP_URL: optional,
  NEXTAUTH_URL: optional,
  NEXTAUTH_SECRET: optional,
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  // Tests only: a local OpenID Connect issuer standing in for Google; honoured for loopback URLs only.
  GOOGLE_TEST_ISSUER: optional,
  ADMIN_EMAILS: optional,
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY: optional,
  STRIPE_API_HOST: optional, // tests and benchmarks: the fake Stripe server
  STRIPE_RATE_LIMIT: z.coerce.number().int().positive().default(25),
  CHARGE_CONCURRENCY: z.coerce.number().int().positive().max(64).default(8),
  // DESIGN §1 "failed payments": days a backer has to fix a failed payment (or until the event starts)
  PAYMENT_RECOVERY_DAYS: z.coerce.number().int().min(1).max(30).default(7),
  // Issue 23, organizers get paid: the platform's fee per charge (basis points + fixed cents), and how
  // many days after the tip an event's money is transferred (never before the recovery window ends)
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(5000).default(0),
  PLATFORM_FEE_FIXED_CENTS: z.coerce.number().int().min(0).max(1000).default(0),
  PAYOUT_HOLD_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  // Stripe Connect events (account.updated, transfer.*) come to the same endpoint with their own secret
  STRIPE_CONNECT_WEBHOOK_SECRET: optional,
  SMTP_URL: optional,
  // Cover images in an S3-compatible bucket (issue 17); unset: kept in PostgreSQL.
  S3_ENDPOINT: optional,
  S3_REGION: z.string().default("us-east-1"),
  S3_BUCKET: optional,
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_PUBLIC_URL: optional, // where browsers fetch the objects (added to the CSP's img-src)
  EMAIL_FROM: z.string().default("PactNexus <no-reply@pactnexus.local>"),
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  JOBS_ENABLED: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (cached && cached.DATABASE_URL === process.env.DATABASE_URL) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}

/**
 * The database address, read live rather than from the parsed copy: the start script and the tests
 * set it at run time, and the pool (lib/db.ts) follows a change.
 */
export const databaseUrl = (): string | undefined => process.env.DATABASE_URL;

/** Read live too: benchmarks and tests switch the per-user abuse limits off at run time. */
export const rateLimitsDisabled = () => process.env.RATE_LIMIT_DISABLED === "true";

/** The configured public addresses (APP_URL, NEXTAUTH_URL), read live like the front server's view of them. */
export const publicUrls = (): string[] =>
  [process.env.APP_URL, process.env.NEXTAUTH_URL].filter((u): u is string => Boolean(u));

/** Environment variables whose values must never reach a log (lib/security/redact.ts). */
const SECRET_ENV = [
  "NEXTAUTH_SECRET",
  "AUTH_SECRET",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "GOOGLE_CLIENT_SECRET",
  "SMTP_URL",
  "DATABASE_URL",
  "S3_SECRET_ACCESS_KEY",
] as const;

/** The secrets' current values, for masking; read raw so a log line works even when env() would not parse. */
export const secretValues = (): Array<[name: string, value: string]> =>
  SECRET_ENV.map((name) => [name, process.env[name]?.trim() ?? ""] as [string, string]).filter(
    ([, value]) => value.length >= 8,
  );

export const googleEnabled = () => Boolean(env().GOOGLE_CLIENT_ID && env().GOOGLE_CLIENT_SECRET);

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * GOOGLE_TEST_ISSUER: where "Continue with Google" goes instead of Google — a local OpenID
 * Connect issuer in the e2e and integration suites. Honoured only for an http(s) URL on a
 * loopback host, so a production setting can never send sign-ins (and the client secret) anywhere
 * else; `ignored` says why a value set is not used. instrumentation.ts logs either at start.
 */
export function googleTestIssuer(): { issuer?: string; ignored?: string } {
  const raw = env().GOOGLE_TEST_ISSUER;
  if (!raw) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ignored: "it is not a URL" };
  }
  if (!/^https?:$/.test(url.protocol) || !LOOPBACK_HOSTS.has(url.hostname))
    return { ignored: "only a loopback http(s) URL (127.0.0.1, localhost, [::1]) is honoured" };
  // and only for an app that itself runs on loopback (the suites): a public deployment never trusts it
  let app: URL | null = null;
  try {
    app = new URL(appUrl());
  } catch {}
  if (!app || !LOOPBACK_HOSTS.has(app.hostname))
    return { ignored: "the app's own address (APP_URL / NEXTAUTH_URL) is not a loopback URL" };
  return { issuer: `${url.origin}${url.pathname.replace(/\/$/, "")}` };
}
export const stripeEnabled = () =>
  Boolean(env().STRIPE_SECRET_KEY && env().NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY);
export const appUrl = () =>
  (env().APP_URL || env().NEXTAUTH_URL || "http://localhost:3000").replace(/\/$/, "");
export const adminEmails = () =>
  new Set(
    (env().ADMIN_EMAILS ?? "")
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );
