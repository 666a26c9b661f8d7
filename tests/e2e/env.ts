import { resolve } from "node:path";

/** Where the browser tests' server lives and keeps its data (a throwaway folder, reset each run). */
const port = Number(process.env.E2E_PORT ?? 4399);
const root = resolve(import.meta.dirname, "../../.e2e", String(port));

export const E2E = {
  root,
  port,
  origin: `http://localhost:${port}`,
  dataDir: resolve(root, "data"),
  publishedDir: resolve(root, "published"),
  databasePath: resolve(root, "data", "plinth.db"),
  outboxDir: resolve(root, "data", "outbox"),
  demoPassword: "Demo-password-for-tests-1!",
  /** The test OpenID Connect provider (scripts/e2e-server.ts with E2E_OIDC_MOCK=1). */
  oidcPort: port + 1000,
};
