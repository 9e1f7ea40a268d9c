// npm run db:migrate            apply pending migrations to DATABASE_URL (or the embedded database)
// npm run db:new -- <name>      write a migration from the difference between migrations and schema
// npm run db:new -- <name> --empty   write an empty migration for hand-written SQL
import path from "node:path";
import { applyMigrations, createMigration } from "./lib/migrations.mjs";
import { withDatabase } from "./lib/database-url.mjs";

const [command, ...rest] = process.argv.slice(2);
const name = rest.find((a) => !a.startsWith("--"));
const empty = rest.includes("--empty");

try {
  await withDatabase(async (url) => {
    if (command === "apply") {
      const applied = await applyMigrations(url);
      console.log(
        applied.length
          ? `Applied ${applied.length} migration(s): ${applied.join(", ")}`
          : "Database is up to date.",
      );
    } else if (command === "new") {
      const dir = await createMigration(url, name ?? "", { empty });
      console.log(
        dir
          ? `Wrote ${path.relative(process.cwd(), dir)}/migration.sql`
          : "Nothing to migrate: the schema matches the migrations.",
      );
    } else {
      throw new Error("Usage: migrate.mjs apply | new <name> [--empty]");
    }
  });
  // The engine keeps the adapter's pool open (idle connections would hold the process ~10 s).
  process.exit(0);
} catch (err) {
  console.error(err?.message ?? err);
  process.exit(1);
}
