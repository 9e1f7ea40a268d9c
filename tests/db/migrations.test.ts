import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const migrationDirs = fs
  .readdirSync(path.join(root, "prisma/migrations"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function migrateCli(args: string[], url: string) {
  return spawnSync(
    process.execPath,
    ["--experimental-wasm-modules", "--no-warnings", "scripts/migrate.mjs", ...args],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
      encoding: "utf8",
    },
  );
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  it("apply from an empty database, record every migration, and are idempotent", async () => {
    const adminUrl = inject("adminUrl");
    const name = `pn_fresh_${process.pid}_${Date.now()}`;
    await query(adminUrl, `CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      const first = migrateCli(["apply"], url.toString());
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toContain(`Applied ${migrationDirs.length} migration(s)`);
      const rows = await query<{ migration_name: string; finished_at: Date | null }>(
        url.toString(),
        `SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name`,
      );
      expect(rows.map((r) => r.migration_name)).toEqual(migrationDirs);
      expect(rows.every((r) => r.finished_at !== null)).toBe(true);

      const second = migrateCli(["apply"], url.toString());
      expect(second.status, second.stderr).toBe(0);
      expect(second.stdout).toContain("Database is up to date.");
    } finally {
      await query(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });

  it("db:new reports nothing to migrate when the schema matches the migrations", () => {
    const before = fs.readdirSync(path.join(root, "prisma/migrations")).length;
    const r = migrateCli(["new", "probe"], process.env.DATABASE_URL!);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Nothing to migrate");
    expect(fs.readdirSync(path.join(root, "prisma/migrations")).length).toBe(before);
  });
});
