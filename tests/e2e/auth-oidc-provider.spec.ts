/**
 * Sign-in through a standards-certified OpenID Connect provider (oidc-provider, the one the API tests
 * run beside oauth2-mock-server; ADR 150) in the browser: the owner presses the provider's button on
 * /auth/login, the browser goes to the provider and back, and the owner is in the dashboard. The
 * provider and a server configured for it (OIDC_*) are started here, in the test's worker, so the
 * shared test server and its Google-like mock stay as they are for the other tests. An account that
 * had only a password is linked on the way, and the mail that says so names the provider (ADR 202).
 */
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { expect, test } from "@playwright/test";
import { hashPassword } from "#api/auth/password.ts";
import { createAccount } from "#api/services/accounts.ts";
import type { Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { MOCK_IDENTITY_COOKIE } from "#tests/support/oidc-mock.ts";
import { startOidcProvider, type OidcProviderServer } from "#tests/support/oidc-provider.ts";
import { startOwnServer, type OwnServer } from "#tests/support/server-process.ts";
import { expectNoAxeViolations } from "./axe.ts";

const CLIENT_ID = "plinth-e2e-certified";
let origin = "";
let provider: OidcProviderServer;
let own: OwnServer;
let db: Db;

test.beforeAll(async () => {
  own = await startOwnServer("oidc-e2e", async (origin) => {
    provider = await startOidcProvider({ clientId: CLIENT_ID, redirectUri: `${origin}/auth/callback` });
    return { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_BUTTON_LABEL: "Continue with Acme ID" };
  });
  ({ origin, db } = own);
});

test.afterAll(async () => {
  await own?.stop();
  await provider?.stop();
});

test("an owner signs in with the provider's button on /auth/login, goes to the provider and comes back to the dashboard", async ({ page, context }) => {
  const username = `sso_${Date.now().toString(36)}`;
  const email = `${username}@acme.example`;
  const { userId } = createAccount(db, { email, username, passwordHash: await hashPassword("Correct-horse-9!"), emailVerified: true, now: new Date() });
  // Who is signed in at the provider: its login and consent then finish at once, as for a person
  // already signed in there who consents.
  const sub = `acme-${username}`;
  await context.addCookies([{ name: MOCK_IDENTITY_COOKIE, value: encodeURIComponent(JSON.stringify({ sub, email, email_verified: true })), url: provider.issuer }]);
  const atProvider: string[] = [];
  page.on("request", (req) => {
    if (req.url().startsWith(provider.issuer)) atProvider.push(new URL(req.url()).pathname);
  });

  await page.goto(`${origin}/auth/login`);
  const button = page.getByRole("link", { name: "Continue with Acme ID" });
  await expect(button).toBeVisible();
  await expectNoAxeViolations(page, "sign-in with a provider's button");
  await button.click();
  await expect(page).toHaveURL(`${origin}/dashboard/links`);
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  await expect(page.getByText(`@${username}`)).toBeVisible();
  // The browser went through the provider's own authorization endpoint and its interaction.
  expect(atProvider.some((p) => p.startsWith("/auth"))).toBe(true);
  expect(atProvider.some((p) => p.startsWith("/interaction/"))).toBe(true);

  // The account is linked to the provider's subject, and the owner is told, by the provider's name.
  expect(db.select({ googleSub: users.googleSub }).from(users).where(eq(users.id, userId)).get()).toEqual({ googleSub: sub });
  await expect.poll(() => mailsTo(join(own.dataDir, "outbox"), email).map((m) => m.subject)).toEqual(["Acme ID sign-in was added to your Plinth account"]);
});
