import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.resolve(__dirname)}/` },
      // Next's "server-only" guard throws outside React Server Components; in tests lib/ runs on the server anyway.
      { find: /^server-only$/, replacement: path.resolve(__dirname, "tests/helpers/empty.ts") },
    ],
  },
  test: {
    include: ["lib/**/*.test.ts", "tests/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["node_modules", "e2e", "bench", "tests/reliability/**"],
    environment: "node",
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/setup-file.ts"],
    // Time-zone bugs must fail here, not in production (CONVENTIONS: a non-UTC zone).
    env: {
      TZ: "Asia/Kathmandu",
      NODE_ENV: "test",
      JOBS_ENABLED: "false",
      NEXTAUTH_SECRET: "test-secret-not-for-production",
      // A 2-core CI box under full load can take seconds to hand out or open a connection: the
      // concurrency tests prove serialisation and counts, not how fast a busy machine forks backends.
      DATABASE_CONNECT_TIMEOUT_MS: "30000",
    },
    pool: "forks",
    // Vitest's default on a 2-core machine is ONE worker (cores - 1), and most of a test's time is
    // spent waiting on Postgres (its own processes): two files at once took the suite from ~11.5 to
    // ~6.5 minutes here under load, with the timing-sensitive tests still green.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
