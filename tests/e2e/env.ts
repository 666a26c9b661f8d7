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
  /** The host custom domains point at (CUSTOM_DOMAIN_TARGET), and its address in the DNS stand-in. */
  domainTarget: "domains.plinth-e2e.net",
  domainTargetAddress: "192.0.2.10",
  /** The DNS records the custom domain checks see (api/services/dns-file-resolver.ts): the test writes them. */
  dnsFile: resolve(root, "dns.json"),
  /** The test OpenID Connect provider (scripts/e2e-server.ts with E2E_OIDC_MOCK=1). */
  oidcPort: port + 1000,
};
