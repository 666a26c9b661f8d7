import { defineConfig } from "@playwright/test";
import { E2E } from "./tests/e2e/env.ts";

/**
 * Browser tests: Debian's Chromium (/usr/bin/chromium) against the real server, started by
 * scripts/e2e-server.ts on a throwaway data folder with the demo page seeded.
 */
export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: "./test-results",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  forbidOnly: !!process.env.CI,
  use: {
    baseURL: E2E.origin,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  webServer: {
    command: "E2E_OIDC_MOCK=1 tsx scripts/e2e-server.ts",
    url: `${E2E.origin}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
