// The server Playwright starts: a fresh embedded PostgreSQL (no demo data), then the production
// build through scripts/start.mjs. The database URL is written to .data/e2e/db-url for fixtures.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmbeddedPostgres } from "./lib/embedded-db.mjs";
import { ensureDatabase } from "./lib/database-url.mjs";
import { LOCAL_OIDC_CLIENT, startLocalOidc } from "./lib/local-oidc.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// One directory per port, so parallel e2e runs (E2E_PORT) on one machine stay apart.
const dir = path.join(root, ".data", `e2e-${process.env.PORT || 3100}`);
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });

const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: 0, fast: true });
await ensureDatabase(pg.url(), "pactnexus_e2e");
const url = pg.url("pactnexus_e2e");
fs.writeFileSync(path.join(dir, "db-url"), url);

// "Continue with Google" signs in at a local OpenID Connect issuer (scripts/lib/local-oidc.mjs).
const port = process.env.PORT || 3100;
const oidc = await startLocalOidc({ redirectUris: [`http://localhost:${port}/api/auth/callback/google`] });
fs.writeFileSync(path.join(dir, "oidc-url"), oidc.issuer);

const child = spawn(process.execPath, ["--max-old-space-size=192", path.join(root, "scripts/start.mjs")], {
  stdio: "inherit",
  env: {
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: dir,
    SEED_DEMO: "false",
    NEXTAUTH_SECRET: process.env.E2E_NEXTAUTH_SECRET || "e2e-secret-not-for-production",
    RATE_LIMIT_DISABLED: process.env.RATE_LIMIT_DISABLED || "",
    GOOGLE_CLIENT_ID: LOCAL_OIDC_CLIENT.id,
    GOOGLE_CLIENT_SECRET: LOCAL_OIDC_CLIENT.secret,
    GOOGLE_TEST_ISSUER: oidc.issuer,
  },
});
const stop = async (code) => {
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  await oidc.close();
  await pg.stop();
  process.exit(code);
};
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => stop(0));
child.on("exit", (code) => stop(code ?? 1));
