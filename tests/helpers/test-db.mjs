// Shared by the Vitest global setup and the Playwright e2e setup: a Postgres server for tests.
// DATABASE_URL (a local server) when set, else an embedded cluster in .data/test-pg.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-db.mjs";

export function assertLocal(url) {
  const host = new URL(url).hostname;
  if (!["localhost", "127.0.0.1", "::1", "[::1]"].includes(host)) {
    throw new Error(
      `Refusing to run tests against a non-local database (${host}). Unset DATABASE_URL or point it at localhost.`,
    );
  }
}

export function withDb(url, db) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

export async function adminQuery(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Starts the server; returns { adminUrl, stop }. Each run gets its own throwaway cluster
 * (.data/test-pg-<pid>), so several runs on one machine never share or stop each other's.
 */
export async function startTestServer(dirName = "test-pg") {
  if (process.env.DATABASE_URL) {
    assertLocal(process.env.DATABASE_URL);
    return { adminUrl: withDb(process.env.DATABASE_URL, "postgres"), stop: async () => {} };
  }
  const root = path.resolve(import.meta.dirname, "../..");
  const dir = path.join(root, ".data", `${dirName}-${process.pid}`);
  const server = await startEmbeddedPostgres({ dataDir: dir, port: 0, fast: true });
  return {
    adminUrl: server.url("postgres"),
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function migrate(url) {
  const root = path.resolve(import.meta.dirname, "../..");
  const r = spawnSync(
    process.execPath,
    ["--experimental-wasm-modules", "--no-warnings", "scripts/migrate.mjs", "apply"],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
      encoding: "utf8",
    },
  );
  if (r.status !== 0) throw new Error(`Migrations failed:\n${r.stdout}\n${r.stderr}`);
}

/** A freshly migrated template database; test databases are cloned from it. */
export async function createTemplate(adminUrl, name) {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  migrate(withDb(adminUrl, name));
  return name;
}
