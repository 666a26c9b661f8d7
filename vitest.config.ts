import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/api/**/*.test.{ts,tsx}"],
    environment: "node",
    // Builds the visitor script the tests publish with; one temporary folder per run.
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    pool: "forks",
    // Two test files at a time at least, even on two cores (Vitest's default there is one): most of
    // a file's time is spent waiting on child processes, servers and the disk (ADR 171).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
