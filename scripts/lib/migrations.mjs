// Prisma migrations through Prisma's own schema engine compiled to WebAssembly
// (@prisma/schema-engine-wasm), driven over @prisma/adapter-pg. Same folder layout and the same
// `_prisma_migrations` table as `prisma migrate deploy`. Needs `node --experimental-wasm-modules`
// on Node 20 (see DESIGN §4); run it through scripts/migrate.mjs.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import crypto from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from "@prisma/driver-adapter-utils";

// The engine describes the database through catalog queries returning Postgres' internal "char"
// type (OID 18, e.g. pg_constraint.contype), which @prisma/adapter-pg 7.10 rejects as an
// unsupported column type while the engine expects a Character column. In this migration
// process only, the adapter's queryRaw reports such columns as Character.
const PG_CHAR = 18;
const PG_TEXT = 25;
let charPatched = false;
async function patchCharColumns(config) {
  if (charPatched) return;
  charPatched = true;
  const probe = await new PrismaPg(config).connect();
  const queryable = Object.getPrototypeOf(Object.getPrototypeOf(probe)); // PgQueryable.prototype
  await probe.dispose();
  const queryRaw = queryable.queryRaw;
  queryable.queryRaw = async function (query) {
    const charColumns = [];
    const view = Object.create(this);
    view.performIO = async (q) => {
      const result = await this.performIO(q);
      result.fields.forEach((field, i) => {
        if (field.dataTypeID === PG_CHAR) {
          field.dataTypeID = PG_TEXT;
          charColumns.push(i);
        }
      });
      return result;
    };
    const out = await queryRaw.call(view, query);
    for (const i of charColumns) out.columnTypes[i] = ColumnTypeEnum.Character;
    return out;
  };
}

// The engine reports a Rust panic through this global before it throws.
let lastPanic = null;
globalThis.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m) => (lastPanic = m) };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const schemaPath = path.join(root, "prisma/schema.prisma");
export const migrationsDir = path.join(root, "prisma/migrations");
const NO_FILTER = { externalTables: [], externalEnums: [] };

export function loadMigrations() {
  fs.mkdirSync(migrationsDir, { recursive: true });
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  const dirs = fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(file)
            ? { tag: "ok", value: fs.readFileSync(file, "utf8") }
            : { tag: "error", value: `${file} is missing` },
        },
      };
    }),
  };
}

/**
 * Explicit fields rather than `connectionString`: the adapter opens the shadow database with
 * `{ ...config, database }`, and node-postgres lets a connection string override `database`,
 * which would replay the migrations on the main database instead of the shadow one.
 */
function poolConfig(url) {
  const u = new URL(url);
  const params = Object.fromEntries(u.searchParams);
  return {
    host: decodeURIComponent(u.hostname),
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || "postgres",
    ssl:
      params.sslmode && params.sslmode !== "disable"
        ? { rejectUnauthorized: params.sslmode === "verify-full" }
        : undefined,
  };
}

async function adminQuery(config, sql) {
  const client = new pg.Client(config);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function withEngine(url, fn) {
  const { SchemaEngine } = await import("@prisma/schema-engine-wasm");
  const schema = fs.readFileSync(schemaPath, "utf8");
  const config = poolConfig(url);
  await patchCharColumns(config);
  const factory = new PrismaPg(config);
  // Our own shadow database: the adapter's version drops the database before closing its pool
  // ("database is being accessed by other users") and leaves that pool without an error listener.
  factory.connectToShadowDb = async () => {
    const database = `prisma_migrate_shadow_db_${crypto.randomUUID()}`;
    await adminQuery(config, `CREATE DATABASE "${database}"`);
    const shadow = await new PrismaPg({ ...config, database }).connect();
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await adminQuery(config, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    };
    return shadow;
  };
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  const logs = [];
  const engine = await SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    (line) => logs.push(line),
    adapter,
  );
  try {
    return await fn(engine, schema);
  } catch (err) {
    const detail = [lastPanic && `Schema engine panic: ${lastPanic}`, err?.message ?? String(err)]
      .filter(Boolean)
      .join("\n");
    throw new Error(`${detail}${logs.length ? `\n${logs.slice(-5).join("\n")}` : ""}`);
  } finally {
    engine.free();
  }
}

/** Applies pending migrations; returns the names applied. */
export async function applyMigrations(url) {
  return withEngine(url, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: loadMigrations(), filters: NO_FILTER });
    return out.appliedMigrationNames;
  });
}

function timestamp() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/**
 * Writes prisma/migrations/<timestamp>_<name>/migration.sql with the SQL that takes the database
 * described by the migrations folder (replayed on a shadow database) to prisma/schema.prisma.
 * `empty: true` writes an empty migration for hand-written SQL (like `migrate dev --create-only`).
 * Returns the folder written, or null when there is nothing to migrate.
 */
export async function createMigration(url, name, { empty = false } = {}) {
  const safe = name
    .replace(/[^a-zA-Z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  if (!safe) throw new Error("Give the migration a name: npm run db:new -- <name>");
  let sql;
  if (empty) {
    sql = "-- Hand-written migration.\n";
  } else {
    sql = await withEngine(url, async (engine, schema) => {
      const list = loadMigrations();
      const from = list.migrationDirectories.length ? { tag: "migrations", ...list } : { tag: "empty" };
      const result = await engine.diff({
        from,
        to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
        script: true,
        exitCode: true,
        filters: NO_FILTER,
      });
      return result.exitCode === 2 ? result.stdout : null;
    });
    if (!sql || !sql.trim() || /^-- This is an empty migration\.\s*$/.test(sql.trim())) return null;
  }
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  if (!fs.existsSync(lockPath)) {
    fs.writeFileSync(
      lockPath,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  }
  const dir = path.join(migrationsDir, `${timestamp()}_${safe}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), sql);
  return dir;
}
