/**
 * Google sign-in with OpenID Connect (openid-client): the authorization code flow with PKCE (S256),
 * state and nonce, returning to /auth/callback. The issuer is configurable (GOOGLE_ISSUER) so tests
 * run it against a real OIDC provider of their own.
 */
import * as client from "openid-client";
import type { Env } from "../env.server.ts";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
}

export function oidcSettings(env: Env): OidcSettings | null {
  if (!env.GOOGLE_CLIENT_ID) return null;
  return {
    issuer: env.GOOGLE_ISSUER,
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    redirectUri: `${env.PUBLIC_ORIGIN}/auth/callback`,
  };
}

const configs = new Map<string, Promise<client.Configuration>>();

/** The provider's discovered configuration, fetched once per process (again after a failure). */
function configuration(s: OidcSettings): Promise<client.Configuration> {
  const key = `${s.issuer} ${s.clientId}`;
  let found = configs.get(key);
  if (!found) {
    const insecure = s.issuer.startsWith("http://");
    found = client.discovery(
      new URL(s.issuer),
      s.clientId,
      s.clientSecret ? { client_secret: s.clientSecret } : undefined,
      s.clientSecret ? client.ClientSecretPost(s.clientSecret) : client.None(),
      // Plain http is only ever a provider on this machine (tests, development).
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    found.catch(() => configs.delete(key));
    configs.set(key, found);
  }
  return found;
}

export interface FlowChecks {
  state: string;
  nonce: string;
  verifier: string;
}

export async function authorizationUrl(s: OidcSettings): Promise<{ url: URL; checks: FlowChecks }> {
  const config = await configuration(s);
  const verifier = client.randomPKCECodeVerifier();
  const checks = { state: client.randomState(), nonce: client.randomNonce(), verifier };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: s.redirectUri,
    scope: "openid email profile",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state: checks.state,
    nonce: checks.nonce,
    // ADR 043: let the person pick which Google account; no offline access, we keep no Google tokens.
    prompt: "select_account",
  });
  return { url, checks };
}

export interface ProviderIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
}

/** Exchanges the code (checking state, nonce and PKCE) and returns who signed in. Throws on any failure. */
export async function finishAuthorization(s: OidcSettings, query: string, checks: FlowChecks): Promise<ProviderIdentity> {
  const config = await configuration(s);
  const currentUrl = new URL(s.redirectUri);
  currentUrl.search = query;
  const tokens = await client.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: checks.verifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims?.sub) throw new Error("The provider returned no subject");
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : null;
  return { sub: String(claims.sub), email, emailVerified: claims.email_verified === true || claims.email_verified === "true" };
}
