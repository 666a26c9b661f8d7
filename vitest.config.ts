import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/api/**/*.test.{ts,tsx}"],
    environment: "node",
    // Tests publish pages, which read the built visitor script.
    globalSetup: ["tests/setup/build-visitor.ts"],
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
