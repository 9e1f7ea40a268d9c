import { createHash } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { databaseUrl, env } from "@/lib/env";

export { Prisma } from "@/lib/generated/prisma/client";
export type * from "@/lib/generated/prisma/client";

type Db = PrismaClient;
const globalForDb = globalThis as unknown as {
  __pactnexusDb?: Db;
  __pactnexusDbUrl?: string;
  __pactnexusPool?: pg.Pool;
};

function createClient(url: string): Db {
  // The pool is ours and handed to Prisma, so the hot raw statements (rawQuery) share its connections.
  const pool = new pg.Pool({
    connectionString: url,
    max: env().DATABASE_POOL_SIZE,
    // How long a query may wait for a pooled connection (or a new one to open) before failing.
    connectionTimeoutMillis: env().DATABASE_CONNECT_TIMEOUT_MS,
  });
  globalForDb.__pactnexusPool = pool;
  const adapter = new PrismaPg(pool, {
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool opens a new one on the next query.
    onPoolError: (err) => console.warn(`[db] idle connection lost: ${err.message}`),
    disposeExternalPool: true,
  });
  return new PrismaClient({ adapter });
}

/** The Prisma client, created on first use so DATABASE_URL can be set at run time (tests, start script). */
function getDb(): Db {
  const url = databaseUrl();
  if (!url) throw new Error("DATABASE_URL is not set. Start the app with `npm start`, which provides one.");
  if (!globalForDb.__pactnexusDb || globalForDb.__pactnexusDbUrl !== url) {
    globalForDb.__pactnexusDb = createClient(url);
    globalForDb.__pactnexusDbUrl = url;
  }
  return globalForDb.__pactnexusDb;
}

export const db: Db = new Proxy({} as Db, {
  get(_target, prop) {
    const client = getDb();
    const value = Reflect.get(client, prop, client);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

export async function disconnectDb() {
  const client = globalForDb.__pactnexusDb;
  const pool = globalForDb.__pactnexusPool;
  globalForDb.__pactnexusDb = undefined;
  globalForDb.__pactnexusDbUrl = undefined;
  globalForDb.__pactnexusPool = undefined;
  await client?.$disconnect();
  // Prisma ends the pool it used; one only rawQuery used is ended here
  if (pool && !pool.ended) await pool.end();
}

/**
 * A raw statement on its own (no transaction) straight on the pool, as a named (prepared) statement:
 * issue 35 item 3, the commit path. PostgreSQL parses and plans a named statement once per connection
 * (the commit's read planned in 0.66 ms per call unnamed, executed in 0.09 ms prepared), and the pg
 * driver costs a fraction of Prisma's query pipeline. The name is a hash of the text, so every shape
 * of a statement built with Prisma.sql gets its own. DATABASE_PREPARED_STATEMENTS=false sends it
 * unnamed (PgBouncer in transaction mode before 1.21: README, "Several instances").
 *
 * The rows come as the pg driver types them, not as Prisma does: int8 and numeric are strings (cast
 * them in the SQL), timestamptz a Date, json parsed, int4/float8 numbers, booleans. Use it only for
 * statements whose columns read the same either way.
 */
export async function rawQuery<T>(sql: Prisma.Sql): Promise<T[]> {
  getDb();
  const pool = globalForDb.__pactnexusPool!;
  const named =
    process.env.DATABASE_PREPARED_STATEMENTS === "false"
      ? {}
      : { name: `pn_${createHash("sha1").update(sql.text).digest("base64url").slice(0, 20)}` };
  const { rows } = await pool.query({ ...named, text: sql.text, values: sql.values });
  return rows as T[];
}

/**
 * `client.$queryRaw` as a tag (queryOn<Row>(client)`SELECT …`), through rawQuery when `client` is
 * `db` itself, not a transaction: for statements whose rows read the same either way (see rawQuery).
 */
export function queryOn<T>(client: Prisma.TransactionClient) {
  return (strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]> => {
    const sql = Prisma.sql(strings, ...(values as Prisma.Sql[]));
    return client === db ? rawQuery<T>(sql) : client.$queryRaw<T[]>(sql);
  };
}
