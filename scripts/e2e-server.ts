/**
 * The server the browser tests run against: a fresh data folder, the demo page seeded, then the real
 * server (api/server.ts) on E2E.port.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { E2E } from "../tests/e2e/env.ts";

rmSync(E2E.root, { recursive: true, force: true });
mkdirSync(E2E.root, { recursive: true });
// Custom domains' DNS: the target's own address, and whatever records a test writes to this file.
writeFileSync(E2E.dnsFile, JSON.stringify({ [`A ${E2E.domainTarget}`]: [E2E.domainTargetAddress] }));
Object.assign(process.env, {
  NODE_ENV: "test",
  PORT: String(E2E.port),
  HOST: "127.0.0.1",
  DATA_DIR: E2E.dataDir,
  PUBLISHED_DIR: E2E.publishedDir,
  PUBLIC_ORIGIN: E2E.origin,
  DEMO_PASSWORD: E2E.demoPassword,
  LOG_REQUESTS: "0",
  // The job worker looks often for jobs the tests make due (a period end or a boundary moved into the past).
  BILLING_SWEEP_MS: "500",
  // The seller printed on invoices (tests/e2e/invoices.spec.ts).
  SELLER_NAME: "Plinth Publishing Ltd",
  SELLER_ADDRESS: "1 High Street\\nLondon N1 1AA",
  SELLER_TAX_ID: "GB123456789",
  TAX_RATE_PERCENT: "20",
  // Custom domains on (tests/e2e/dashboard-domain.spec.ts), their DNS read from a file the test writes:
  // the stand-in is used only with NODE_ENV=test and E2E_DNS_FILE both set (api/deps.ts).
  CUSTOM_DOMAIN_TARGET: E2E.domainTarget,
  E2E_DNS_FILE: E2E.dnsFile,
});

// Google sign-in against a real OpenID Connect provider on this machine (tests/e2e/auth-google.spec.ts).
if (process.env.E2E_OIDC_MOCK === "1") {
  const { startOidcMock } = await import("../tests/support/oidc-mock.ts");
  const provider = await startOidcMock(E2E.oidcPort);
  Object.assign(process.env, { OIDC_CLIENT_ID: "plinth-e2e", OIDC_ISSUER: provider.issuer.url, OIDC_BUTTON_LABEL: "Continue with Google" });
}

const { createDeps } = await import("#api/deps.ts");
const { seedDemo } = await import("./lib/seed-demo.ts");
const { closeDatabase } = await import("#db/client.ts");
const deps = createDeps();
await seedDemo(deps, E2E.demoPassword);
closeDatabase(deps.db);
await import("#api/server.ts");
