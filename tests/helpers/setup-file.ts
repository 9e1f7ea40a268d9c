import { afterAll, afterEach, beforeAll, beforeEach, inject, vi } from "vitest";
import pg from "pg";

// Each test file gets its own database, cloned from the migrated template (CREATE DATABASE … TEMPLATE).
const adminUrl = inject("adminUrl");
const templateDb = inject("templateDb");
const dbName = `pn_test_${templateDb.replace("pn_template_", "")}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;
process.env.DATABASE_URL = url.toString();
process.env.TEST_ADMIN_URL = adminUrl;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await admin(`CREATE DATABASE "${dbName}" TEMPLATE "${templateDb}"`);
});

afterAll(async () => {
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
  await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
});

// An unexpected console.error fails the test (CONVENTIONS). Tests that expect one mock it themselves.
let errorSpy: ReturnType<typeof vi.spyOn> | undefined;
beforeEach(() => {
  errorSpy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`Unexpected console.error: ${args.map(String).join(" ")}`);
  });
});
afterEach(() => {
  errorSpy?.mockRestore();
});
