/**
 * Sign-in with an OpenID Connect provider (openid-client; ADR 043, 150): the authorization code
 * flow with PKCE (S256), state and nonce, returning to /auth/callback. Google by default; any
 * standard provider through OIDC_ISSUER (the tests run oauth2-mock-server and oidc-provider, an
 * OpenID-certified one). Only Google is sent Google's own `prompt=select_account`; the e-mail and
 * whether it is verified come from the ID token, or from UserInfo when the ID token lacks them.
 */
import * as client from "openid-client";
import { isGoogleIssuer, type Env } from "../env.server.ts";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  /** The sign-in button's text (OIDC_BUTTON_LABEL). */
  label: string;
  /** The issuer is Google's: its logo on the button, and its account chooser. */
  google: boolean;
}

export function oidcSettings(env: Env): OidcSettings | null {
  if (!env.OIDC_CLIENT_ID) return null;
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    redirectUri: `${env.PUBLIC_ORIGIN}/auth/callback`,
    label: env.OIDC_BUTTON_LABEL,
    google: isGoogleIssuer(env.OIDC_ISSUER),
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

/** The authorization request's parameters beside the client id. */
export function authorizationParameters(s: OidcSettings, checks: FlowChecks, codeChallenge: string): Record<string, string> {
  return {
    redirect_uri: s.redirectUri,
    scope: "openid email profile",
    code_challenge: codeChallenge,
    code_challenge_method: "S256",
    state: checks.state,
    nonce: checks.nonce,
    // ADR 043: let the person pick which Google account; no offline access, we keep no Google tokens.
    // `select_account` is Google's own value: a standard provider refuses the request for it (ADR 150).
    ...(s.google ? { prompt: "select_account" } : {}),
  };
}

export async function authorizationUrl(s: OidcSettings): Promise<{ url: URL; checks: FlowChecks }> {
  const config = await configuration(s);
  const verifier = client.randomPKCECodeVerifier();
  const checks = { state: client.randomState(), nonce: client.randomNonce(), verifier };
  const url = client.buildAuthorizationUrl(config, authorizationParameters(s, checks, await client.calculatePKCECodeChallenge(verifier)));
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
  let email: unknown = claims.email;
  let verified: unknown = claims.email_verified;
  // A standard provider may put the e-mail only in UserInfo (OpenID Connect Core 5.4): asked with the
  // access token, and only believed for the same subject (openid-client checks it).
  if (email === undefined || verified === undefined) {
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    email ??= info.email;
    verified ??= info.email_verified;
  }
  return {
    sub: String(claims.sub),
    email: typeof email === "string" ? email.trim().toLowerCase() : null,
    emailVerified: verified === true || verified === "true",
  };
}
