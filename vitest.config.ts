import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/api/**/*.test.{ts,tsx}"],
    environment: "node",
    // Builds the visitor script the tests publish with; one temporary folder per run.
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/server-response.ts", "tests/setup/fail-on-console-error.ts"],
    pool: "forks",
    // One module graph per worker, not per file: loading modules again for every file took about
    // 4.5 minutes of the workers' time. Each file still makes its own app, database and folders.
    isolate: false,
    // Two test files at a time at least, even on two cores (Vitest's default there is one): most of
    // a file's time is spent waiting on child processes, servers and the disk (ADR 171).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
