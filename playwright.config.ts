import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT || 3100);
const baseURL = `http://localhost:${port}`;

/** Debian's Chromium (CHROMIUM_PATH or /usr/bin/chromium), else Playwright's own browser if installed. */
function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (found) return found;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const own = require("playwright-core").chromium.executablePath();
    if (own && fs.existsSync(own)) return undefined; // Playwright finds it itself
  } catch {}
  throw new Error(
    "No Chromium found for the e2e tests. Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.",
  );
}

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // Under CI a failed test runs once more and a pass then is reported "flaky" by name in the log
  // (the run still passes); a test that fails twice fails the run. Locally: no retries.
  retries: process.env.CI ? 1 : 0,
  // One output folder per port: parallel runs on one machine must not delete each other's traces.
  outputDir: `test-results/e2e-${port}`,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    timezoneId: "Asia/Kathmandu",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromiumPath(),
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${baseURL}/api/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: { PORT: String(port) },
  },
});
