import { defineConfig } from "prisma/config";

// The app applies migrations through scripts/migrate.mjs (Prisma's WebAssembly schema engine),
// but this file keeps the standard CLI (`prisma migrate deploy`) working on machines that have
// the native engine: same schema, same migrations folder, same `_prisma_migrations` table.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx --conditions=react-server scripts/seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
