import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseUrl, env } from "@/lib/env";

export { Prisma } from "@/lib/generated/prisma/client";
export type * from "@/lib/generated/prisma/client";

type Db = PrismaClient;
const globalForDb = globalThis as unknown as { __pactnexusDb?: Db; __pactnexusDbUrl?: string };

function createClient(url: string): Db {
  const adapter = new PrismaPg(
    {
      connectionString: url,
      max: env().DATABASE_POOL_SIZE,
      // How long a query may wait for a pooled connection (or a new one to open) before failing.
      connectionTimeoutMillis: env().DATABASE_CONNECT_TIMEOUT_MS,
    },
    {
      // An idle connection dropped by the server (restart, failover) must not crash the process;
      // the pool opens a new one on the next query.
      onPoolError: (err) => console.warn(`[db] idle connection lost: ${err.message}`),
    },
  );
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
  globalForDb.__pactnexusDb = undefined;
  globalForDb.__pactnexusDbUrl = undefined;
  await client?.$disconnect();
}
