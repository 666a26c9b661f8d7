import { defineConfig } from "@playwright/test";
import { E2E } from "./tests/e2e/env.ts";

/**
 * Browser tests: Debian's Chromium against the real server, started by scripts/e2e-server.ts on a
 * throwaway data folder with the demo page seeded. The suite drives Chromium's headless shell, the
 * same engine without the desktop browser's profile machinery; E2E_BROWSER=/usr/bin/chromium runs a
 * test in the full browser, as `npm run test:node24` does with the smoke test (ADR 250). Traces
 * cost more than the tests they record, so they are off: `--trace retain-on-failure` turns them on.
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
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.E2E_BROWSER ?? "/usr/lib/chromium/chromium-headless-shell",
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
    command: "E2E_OIDC_MOCK=1 node --import tsx scripts/e2e-server.ts",
    url: `${E2E.origin}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
