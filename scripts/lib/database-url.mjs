// Resolves the database the CLI scripts work on: DATABASE_URL when set, else the embedded
// PostgreSQL under DATA_DIR (default .data/), started for the duration of the command.
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "./embedded-db.mjs";

export const DEFAULT_DB = "pactnexus";
export const dataDir = () => path.resolve(process.env.DATA_DIR || ".data");

/** Creates the database if it does not exist yet (embedded cluster only). */
export async function ensureDatabase(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

export async function withDatabase(fn) {
  if (process.env.DATABASE_URL) return fn(process.env.DATABASE_URL);
  const db = await startEmbeddedPostgres({ dataDir: path.join(dataDir(), "pg"), port: 54329 });
  try {
    await ensureDatabase(db.url(), DEFAULT_DB);
    return await fn(db.url(DEFAULT_DB));
  } finally {
    await db.stop();
  }
}
