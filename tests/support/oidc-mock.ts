/**
 * A real OpenID Connect provider for browser tests (oauth2-mock-server). The browser tells it who is
 * "signing in to Google" with a cookie on its host (mock_oidc_identity: JSON with sub, email,
 * email_verified), read when the browser reaches the authorize endpoint; the ID token of that code
 * then carries those claims.
 */
import type { IncomingMessage } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";

export const MOCK_IDENTITY_COOKIE = "mock_oidc_identity";

function identityFrom(req: IncomingMessage): Record<string, unknown> | null {
  const raw = (req.headers.cookie ?? "")
    .split(";")
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${MOCK_IDENTITY_COOKIE}=`));
  if (!raw) return null;
  try {
    return JSON.parse(decodeURIComponent(raw.slice(MOCK_IDENTITY_COOKIE.length + 1))) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export async function startOidcMock(port: number, host = "127.0.0.1"): Promise<OAuth2Server> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  const byCode = new Map<string, Record<string, unknown>>();
  server.service.on("beforeAuthorizeRedirect", (redirect: { url: URL }, req: IncomingMessage) => {
    const code = redirect.url.searchParams.get("code");
    const who = identityFrom(req);
    if (code && who) byCode.set(code, who);
  });
  server.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }, req: { body?: { code?: string } }) => {
    const who = req.body?.code ? byCode.get(req.body.code) : undefined;
    // Only the ID token has an audience; the access token keeps the provider's defaults.
    if (who && token.payload.aud) Object.assign(token.payload, who);
  });
  await server.start(port, host);
  return server;
}
